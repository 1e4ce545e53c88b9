"""OpenAI-compatible providers: ``openai/`` (or any base URL) and ``ollama/``."""

from __future__ import annotations

import os
from collections.abc import Mapping

from garuda_evals.api import RunSettings, UsageError
from garuda_evals_agent.pricing import PriceSource
from garuda_evals_agent.providers.base import ClientOptions, ModelClient, ModelProvider

OPENAI_KEY_VAR = "OPENAI_API_KEY"
OPENAI_BASE_URL_VAR = "OPENAI_BASE_URL"
OLLAMA_BASE_URL_VAR = "OLLAMA_BASE_URL"
OLLAMA_HOST_VAR = "OLLAMA_HOST"
OLLAMA_DEFAULT = "http://localhost:11434/v1"
PRICE_PROVIDER_VAR = "GARUDA_PRICE_PROVIDER"


def ollama_base_url() -> str:
    """OLLAMA_BASE_URL as given, else OLLAMA_HOST plus ``/v1``, else localhost:11434."""
    if os.environ.get(OLLAMA_BASE_URL_VAR):
        return os.environ[OLLAMA_BASE_URL_VAR].rstrip("/")
    host = os.environ.get(OLLAMA_HOST_VAR, "").strip().rstrip("/")
    if not host:
        return OLLAMA_DEFAULT
    if "://" not in host:
        host = f"http://{host}"
    return host if host.endswith("/v1") else f"{host}/v1"


class OpenAICompatibleProvider(ModelProvider):
    """Chat completions with tool calls, streamed, on the official ``openai`` SDK.

    ``openai/MODEL`` talks to OpenAI, or to any compatible server at OPENAI_BASE_URL
    (vLLM, llama.cpp); a key is required only for OpenAI itself. ``ollama/MODEL`` talks to
    a local Ollama.
    """

    def __init__(self, name: str = "openai") -> None:
        self.name = name

    def base_url(self) -> str | None:
        """The server; None means the SDK's default (OpenAI)."""
        if self.name == "ollama":
            return ollama_base_url()
        return os.environ.get(OPENAI_BASE_URL_VAR) or None

    def check(self, model: str, settings: RunSettings) -> None:
        """OpenAI itself needs OPENAI_API_KEY; a custom base URL or Ollama may not."""
        if self.name == "openai" and not self.base_url() and not os.environ.get(OPENAI_KEY_VAR):
            raise UsageError(
                f"openai/{model} needs an API key: set {OPENAI_KEY_VAR} (or set "
                f"{OPENAI_BASE_URL_VAR} for a compatible server, or use --agent oracle)"
            )

    def endpoint(self) -> tuple[str, str, str]:
        """The OpenAI-compatible API this provider talks to."""
        base = self.base_url() or "https://api.openai.com/v1"
        return "openai", base, os.environ.get(OPENAI_KEY_VAR, "")

    def describe(self, model: str) -> Mapping[str, str]:
        """The provider and the base URL."""
        base = self.base_url()
        return {"provider": self.name, **({"baseUrl": base} if base else {})}

    def price_source(self, model: str) -> PriceSource:
        """OpenAI's prices for OpenAI itself or with GARUDA_PRICE_PROVIDER, else the ones
        genai-prices finds by the base URL (none for a local server)."""
        base = self.base_url()
        forced = os.environ.get(PRICE_PROVIDER_VAR)
        if forced or (self.name == "openai" and base is None):
            return PriceSource(provider_id=forced or "openai")
        return PriceSource(api_url=base)

    def open(self, model: str, settings: RunSettings, options: ClientOptions) -> ModelClient:
        """A streaming client for one turn."""
        import openai

        from garuda_evals_agent.providers.openai_client import OpenAIClient

        base = self.base_url()
        key = os.environ.get(OPENAI_KEY_VAR) or ("ollama" if self.name == "ollama" else "none")
        sdk = openai.AsyncOpenAI(
            api_key=key, base_url=base, max_retries=0, timeout=options.request_timeout_s
        )
        official = self.name == "openai" and base is None
        return OpenAIClient(
            sdk,
            model,
            options,
            provider=self.name,
            key_var=OPENAI_KEY_VAR,
            prices=self.price_source(model),
            limit_param="max_completion_tokens" if official else "max_tokens",
        )
