"""Prices from the maintained ``genai-prices`` table; an unknown price is None, never zero."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from functools import lru_cache

from garuda_evals_agent.messages import CallUsage


@dataclass(frozen=True)
class PriceSource:
    """How genai-prices finds the provider: by its id, or by the API's base URL."""

    provider_id: str | None = None
    api_url: str | None = None


def price_call(usage: CallUsage, model: str, source: PriceSource, factor: float = 1.0) -> None:
    """Set ``usage.cost_usd`` (times ``factor``), or leave it None with a note when unknown."""
    try:
        total = _calc(
            model,
            source,
            usage.input_tokens + usage.cache_read_tokens + usage.cache_write_tokens,
            usage.cache_read_tokens,
            usage.cache_write_tokens,
            usage.output_tokens,
        )
    except (LookupError, ValueError) as error:
        usage.cost_usd = None
        usage.price_note = f"no known price for {model}: {error}"
        return
    usage.cost_usd = total * factor


@lru_cache(maxsize=1024)
def _calc(
    model: str,
    source: PriceSource,
    total_input: int,
    cache_read: int,
    cache_write: int,
    output: int,
) -> float:
    from genai_prices import Usage, calc_price

    priced = Usage(
        input_tokens=total_input,
        cache_read_tokens=cache_read,
        cache_write_tokens=cache_write,
        output_tokens=output,
    )
    if source.provider_id:
        result = calc_price(priced, model, provider_id=source.provider_id)
    elif source.api_url:
        result = calc_price(priced, model, provider_api_url=source.api_url)
    else:
        result = calc_price(priced, model)
    return float(result.total_price)


RATE_TOKENS = 1_000_000
"""Tokens priced at once to find a per-token price (genai-prices rounds small sums)."""


def dearest_token(model: str, source: PriceSource) -> float | None:
    """The most one token of ``model`` costs (input, cache write or output, whichever is
    dearest), or None when genai-prices has no price for it."""
    try:
        kinds = [
            _calc(model, source, RATE_TOKENS, 0, 0, 0),
            _calc(model, source, 0, 0, 0, RATE_TOKENS),
        ]
    except (LookupError, ValueError):
        return None
    with contextlib.suppress(LookupError, ValueError):  # a model without cache writes
        kinds.append(_calc(model, source, RATE_TOKENS, 0, RATE_TOKENS, 0))
    return max(kinds) / RATE_TOKENS
