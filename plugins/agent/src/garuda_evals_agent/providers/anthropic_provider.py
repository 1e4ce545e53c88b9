"""The ``anthropic`` provider: keys and base URL from the usual environment variables."""

from __future__ import annotations

import os
from collections.abc import Mapping

from garuda_evals.api import RunSettings, UsageError
from garuda_evals_agent.pricing import PriceSource
from garuda_evals_agent.providers.base import ClientOptions, ModelClient, ModelProvider

KEY_VAR = "ANTHROPIC_API_KEY"
BASE_URL_VAR = "ANTHROPIC_BASE_URL"


class AnthropicProvider(ModelProvider):
    """Claude models on the official SDK; the only provider with ``--batch on``."""

    name = "anthropic"
    supports_batch = True

    def check(self, model: str, settings: RunSettings) -> None:
        """Needs ANTHROPIC_API_KEY."""
        if not os.environ.get(KEY_VAR):
            raise UsageError(
                f"anthropic/{model} needs an API key: set {KEY_VAR} "
                "(or use --agent oracle to run without a model)"
            )

    def endpoint(self) -> tuple[str, str, str]:
        """The Messages API at ANTHROPIC_BASE_URL or Anthropic's."""
        base = os.environ.get(BASE_URL_VAR) or "https://api.anthropic.com"
        return "anthropic", base, os.environ.get(KEY_VAR, "")

    def describe(self, model: str) -> Mapping[str, str]:
        """The provider and, when set, the base URL."""
        base = os.environ.get(BASE_URL_VAR)
        return {"provider": self.name, **({"baseUrl": base} if base else {})}

    def price_source(self, model: str) -> PriceSource:
        """Anthropic's prices, whatever the base URL."""
        from garuda_evals_agent.providers.anthropic_client import PRICES

        return PRICES

    def open(self, model: str, settings: RunSettings, options: ClientOptions) -> ModelClient:
        """A streaming client, or the batch client with ``--batch on``."""
        import anthropic

        from garuda_evals_agent.providers.anthropic_batch import AnthropicBatchClient
        from garuda_evals_agent.providers.anthropic_client import AnthropicClient

        sdk = anthropic.AsyncAnthropic(
            api_key=os.environ.get(KEY_VAR),
            base_url=os.environ.get(BASE_URL_VAR) or None,
            max_retries=0,
            timeout=options.request_timeout_s,
        )
        kind = AnthropicBatchClient if options.batch else AnthropicClient
        return kind(sdk, model, options)
