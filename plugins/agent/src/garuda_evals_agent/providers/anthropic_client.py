"""Claude through the official ``anthropic`` SDK: streamed Messages with caching and thinking."""

from __future__ import annotations

import json
from typing import Any

from garuda_evals_agent.messages import ModelRequest, ModelResponse, estimate_tokens
from garuda_evals_agent.pricing import PriceSource, price_call
from garuda_evals_agent.providers.anthropic_models import profile
from garuda_evals_agent.providers.anthropic_response import parse_message, parse_usage
from garuda_evals_agent.providers.anthropic_stream import StreamAccumulator
from garuda_evals_agent.providers.anthropic_wire import messages_param, system_blocks, tools_param
from garuda_evals_agent.providers.base import ClientOptions, ModelClient, TransientModelError
from garuda_evals_agent.providers.http_errors import classify

KEY_VAR = "ANTHROPIC_API_KEY"
PRICES = PriceSource(provider_id="anthropic")


class AnthropicClient(ModelClient):
    """One turn's client. ``sdk`` is an ``anthropic.AsyncAnthropic`` with SDK retries off."""

    price_factor = 1.0

    def __init__(self, sdk: Any, model: str, options: ClientOptions) -> None:
        self.sdk = sdk
        self.model = model
        self.options = options
        self.profile = profile(model)
        self.max_output_tokens = self.profile.max_tokens

    def request_body(self, request: ModelRequest) -> dict[str, Any]:
        """The Messages request body, streamed."""
        params: dict[str, Any] = {
            "model": self.model,
            "max_tokens": request.max_tokens,
            "system": system_blocks(request.system),
            "tools": tools_param(request.tools),
            "messages": messages_param(request.messages, self.options.keep_thinking),
        }
        if self.profile.thinking is not None:
            params["thinking"] = self.profile.thinking
        params["stream"] = True
        return params

    def reservation(self, params: dict[str, Any]) -> int:
        """What an unreported call is counted as: max_tokens plus the estimated input."""
        return params["max_tokens"] + estimate_tokens(json.dumps(params, ensure_ascii=False))

    def response(self, params: dict[str, Any], message: dict[str, Any]) -> ModelResponse:
        """Turn a Message dict into the neutral response, priced."""
        parsed, stop, raw_stop = parse_message(message)
        usage = parse_usage(message.get("usage"), self.reservation(params))
        price_call(usage, self.model, PRICES, self.price_factor)
        return ModelResponse(
            message=parsed,
            stop_reason=stop,
            provider_stop_reason=raw_stop,
            usage=usage,
            wire_request=params,
            wire_response=message,
            price_factor=self.price_factor,
        )

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Stream one Messages call; a stream that ends early is a transient error."""
        params = self.request_body(request)
        accumulator = StreamAccumulator()
        try:
            stream = await self.sdk.messages.create(**params)
            async for event in stream:
                accumulator.feed(event.to_dict())
        except Exception as error:
            raise classify(
                error, provider="anthropic", key_var=KEY_VAR, started=accumulator.started
            ) from error
        if not accumulator.finished:
            raise TransientModelError(
                "anthropic stream ended before message_stop", billed_unknown=accumulator.started
            )
        return self.response(params, accumulator.result())

    async def aclose(self) -> None:
        """Close the SDK's connections."""
        await self.sdk.close()
