"""The provider contract that a ``garuda_model_providers`` record's ``load`` returns."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from garuda_evals.api import RunSettings
from garuda_evals_agent.messages import ModelRequest, ModelResponse
from garuda_evals_agent.pricing import PriceSource


class ModelCallError(RuntimeError):
    """A model call that failed for good (bad request, bad key, retries exhausted): an error run.

    ``refused`` is true when the API rejected the request itself (400, 413, 422: a
    conversation past the model's window, a malformed request); once the turn has called
    the model, that ends the turn and the work is judged (see ``loop``).
    """

    def __init__(self, message: str, *, refused: bool = False) -> None:
        super().__init__(message)
        self.refused = refused


class TransientModelError(Exception):
    """A failure worth retrying: 429, 5xx/529, a dropped connection, an overloaded stream.

    ``retry_after_s`` is the server's Retry-After when it sent one. ``billed_unknown`` is
    true when the response had begun (the request may have been charged).
    """

    def __init__(
        self, message: str, *, retry_after_s: float | None = None, billed_unknown: bool = False
    ) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s
        self.billed_unknown = billed_unknown


@dataclass(frozen=True)
class ClientOptions:
    """What the agent asks of a client: thinking kept or dropped, batch mode, poll interval."""

    keep_thinking: bool = True
    batch: bool = False
    batch_poll_s: float = 5.0
    request_timeout_s: float = 600.0


class ModelClient(ABC):
    """Calls one model for one turn. Made per turn and closed when the turn ends."""

    max_output_tokens: int
    """The max_tokens this client asks for on each call."""

    @abstractmethod
    def request_body(self, request: ModelRequest) -> dict[str, Any]:
        """The body ``complete`` sends for ``request`` (JSON-serializable, for the transcript)."""

    @abstractmethod
    async def complete(self, request: ModelRequest) -> ModelResponse:
        """One model call. Raise TransientModelError to retry, ModelCallError to stop."""

    async def aclose(self) -> None:  # noqa: B027 - optional
        """Release connections."""


class ModelProvider(ABC):
    """A family of models chosen by the ``provider/`` prefix of a model spec.

    Example::

        @hookimpl
        def garuda_model_providers():
            yield ProviderRecord(name="gemini", description="Google Gemini", load=GeminiProvider)
    """

    name: str
    supports_batch: bool = False
    """True when the provider serves ``--batch on``; others are refused before any call."""

    def check(self, model: str, settings: RunSettings) -> None:  # noqa: B027 - optional
        """Raise UsageError before the first task: a missing key, an unsupported flag."""

    def endpoint(self) -> tuple[str, str, str] | None:
        """The API's kind (anthropic, openai, gemini), base URL and key, for the preflight;
        None skips it."""
        return None

    def describe(self, model: str) -> Mapping[str, str]:
        """What report.json records about this provider (never a key)."""
        return {"provider": self.name}

    def price_source(self, model: str) -> PriceSource | None:
        """Where genai-prices finds ``model``'s price (the one ``price_call`` uses); None
        when the provider does not say: ``--max-cost`` is then refused before any call."""
        return None

    @abstractmethod
    def open(self, model: str, settings: RunSettings, options: ClientOptions) -> ModelClient:
        """A fresh client for one turn."""
