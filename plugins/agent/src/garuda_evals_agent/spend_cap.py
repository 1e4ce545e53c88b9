"""``--max-cost`` needs a price: the rule both the built-in agent and the agent CLIs follow.

A cap in USD can only count calls it can price. So a run with ``--max-cost`` whose model has
no known price is refused before the first task (exit 1), rather than run with a cap that
counts nothing. A call that comes back without a usage report counts its reservation at the
model's dearest token price (``Budget.counted``): the most it can have cost, never nothing.
"""

from __future__ import annotations

from garuda_evals.api import UsageError
from garuda_evals_agent.pricing import PriceSource, dearest_token


def cap_rate(max_cost: float, model: str, name: str, source: PriceSource | None) -> float:
    """The dearest token price of ``model`` (``name`` as the user wrote it) for a run capped
    at ``max_cost``; UsageError when no price is known."""
    rate = dearest_token(model, source) if source is not None else None
    if rate is None:
        raise UsageError(
            f"--max-cost {max_cost:g}: no known price for {name}, so the cap could not count "
            "its calls; set GARUDA_PRICE_PROVIDER to the provider whose prices apply "
            "(for example openai), or drop --max-cost"
        )
    return rate
