"""OpenAI-compatible chat completions on the official ``openai`` SDK, streamed with usage."""

from __future__ import annotations

import json
import re
from typing import Any

from garuda_evals_agent.messages import ModelRequest, ModelResponse, estimate_tokens
from garuda_evals_agent.pricing import PriceSource, price_call
from garuda_evals_agent.providers.base import ClientOptions, ModelClient, TransientModelError
from garuda_evals_agent.providers.http_errors import classify
from garuda_evals_agent.providers.openai_stream import ChunkAccumulator, parse_result, parse_usage
from garuda_evals_agent.providers.openai_wire import messages_param, tools_param

THINKING_MAX_TOKENS = 16_384
PLAIN_MAX_TOKENS = 8_192
_ALWAYS_THINKS = re.compile(r"^(?:o\d|gpt-5|.*(?:thinking|reason|-r1\b|qwq))", re.IGNORECASE)


def max_output_tokens(model: str) -> int:
    """16,384 for models that always think (their reasoning shares the limit), else 8,192."""
    return THINKING_MAX_TOKENS if _ALWAYS_THINKS.search(model) else PLAIN_MAX_TOKENS


class OpenAIClient(ModelClient):
    """One turn's client. ``sdk`` is an ``openai.AsyncOpenAI`` with SDK retries off.

    ``limit_param`` is ``max_completion_tokens`` for OpenAI itself and ``max_tokens`` for
    other servers (Ollama, vLLM, llama.cpp), which know the older name.
    """

    def __init__(
        self,
        sdk: Any,
        model: str,
        options: ClientOptions,
        *,
        provider: str,
        key_var: str,
        prices: PriceSource,
        limit_param: str,
    ) -> None:
        self.sdk = sdk
        self.model = model
        self.options = options
        self.provider = provider
        self.key_var = key_var
        self.prices = prices
        self.limit_param = limit_param
        self.max_output_tokens = max_output_tokens(model)

    def request_body(self, request: ModelRequest) -> dict[str, Any]:
        """The chat completion request body."""
        return {
            "model": self.model,
            "messages": messages_param(request.system, request.messages),
            "tools": tools_param(request.tools),
            self.limit_param: request.max_tokens,
            "stream": True,
            "stream_options": {"include_usage": True},
        }

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Stream one completion; a stream without a finish reason is a transient error."""
        params = self.request_body(request)
        accumulator = ChunkAccumulator()
        try:
            stream = await self.sdk.chat.completions.create(**params)
            async for chunk in stream:
                accumulator.feed(chunk.to_dict())
        except Exception as error:
            raise classify(
                error, provider=self.provider, key_var=self.key_var, started=accumulator.started
            ) from error
        if accumulator.finish_reason is None:
            raise TransientModelError(
                f"{self.provider} stream ended without a finish reason",
                billed_unknown=accumulator.started,
            )
        result = accumulator.result()
        message, stop, raw_stop = parse_result(result)
        reservation = request.max_tokens + estimate_tokens(json.dumps(params, ensure_ascii=False))
        usage = parse_usage(result["usage"], reservation)
        price_call(usage, self.model, self.prices)
        return ModelResponse(
            message=message,
            stop_reason=stop,
            provider_stop_reason=raw_stop,
            usage=usage,
            wire_request=params,
            wire_response=result,
        )

    async def aclose(self) -> None:
        """Close the SDK's connections."""
        await self.sdk.close()
