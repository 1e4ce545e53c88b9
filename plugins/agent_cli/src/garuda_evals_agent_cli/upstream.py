"""Where the metering proxy forwards: the provider's API from the usual variables, and its key."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from garuda_evals.api import UsageError
from garuda_evals_agent.pricing import PriceSource

PLACEHOLDER_KEY = "garuda-placeholder-key"
"""The only key an agent CLI holds; the proxy puts the real one in its place on the way out."""
PRICE_PROVIDER_VAR = "GARUDA_PRICE_PROVIDER"


@dataclass(frozen=True)
class ProviderVars:
    """The variables and defaults of one provider's API."""

    base_var: str
    key_var: str
    default_base: str
    price_id: str
    key_required: bool = True


PROVIDERS: Mapping[str, ProviderVars] = {
    "anthropic": ProviderVars(
        "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "https://api.anthropic.com", "anthropic"
    ),
    "openai": ProviderVars(
        "OPENAI_BASE_URL", "OPENAI_API_KEY", "https://api.openai.com/v1", "openai"
    ),
    "gemini": ProviderVars(
        "GOOGLE_GEMINI_BASE_URL",
        "GEMINI_API_KEY",
        "https://generativelanguage.googleapis.com",
        "google",
    ),
}


@dataclass(frozen=True)
class Upstream:
    """One provider's API: its base URL (scheme, host, port, path), key and price source."""

    provider: str
    base_url: str
    key: str
    prices: PriceSource

    @property
    def origin(self) -> tuple[str, str, int]:
        """Scheme, host and port to connect to."""
        parts = urlsplit(self.base_url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        return parts.scheme, parts.hostname or "", port

    @property
    def base_path(self) -> str:
        """The base URL's path (``/v1`` for OpenAI), which the agent's base URL keeps."""
        return urlsplit(self.base_url).path.rstrip("/")


def upstream_for(provider: str, environ: Mapping[str, str] | None = None) -> Upstream:
    """The upstream of ``provider`` from the environment; UsageError when its key is missing."""
    env = os.environ if environ is None else environ
    found = PROVIDERS.get(provider)
    if found is None:
        raise UsageError(
            f"no metered API for provider '{provider}'; one of: {', '.join(PROVIDERS)}"
        )
    custom = env.get(found.base_var, "").strip().rstrip("/")
    base = custom or found.default_base
    key = env.get(found.key_var, "")
    if not key and not custom:
        raise UsageError(f"{provider} needs an API key: set {found.key_var}")
    if urlsplit(base).scheme not in ("http", "https"):
        raise UsageError(f"{found.base_var}={base}: needs an http:// or https:// URL")
    forced = env.get(PRICE_PROVIDER_VAR)
    if forced or not custom or provider in ("anthropic", "gemini"):
        prices = PriceSource(provider_id=forced or found.price_id)
    else:
        prices = PriceSource(api_url=base)
    return Upstream(provider, base, key, prices)
