"""``--batch on``: every call is a Message Batch of one, at half price, polled until it ends."""

from __future__ import annotations

import logging
import uuid
from typing import Any

import anyio

from garuda_evals_agent.messages import ModelRequest, ModelResponse
from garuda_evals_agent.providers.anthropic_client import KEY_VAR, AnthropicClient
from garuda_evals_agent.providers.base import ModelCallError, TransientModelError
from garuda_evals_agent.providers.http_errors import TRANSIENT_ERROR_TYPES, classify

BATCH_PRICE_FACTOR = 0.5
MAX_POLL_S = 60.0
log = logging.getLogger(__name__)


class AnthropicBatchClient(AnthropicClient):
    """Sends each call through the Message Batches API and waits for its one result."""

    price_factor = BATCH_PRICE_FACTOR

    def request_body(self, request: ModelRequest) -> dict[str, Any]:
        """The Messages body of the batch's one request (batches do not stream)."""
        body = super().request_body(request)
        body.pop("stream")
        return body

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Create a batch of one, poll until ``ended``, read its result."""
        params = self.request_body(request)
        custom_id = f"step-{request.step}-{uuid.uuid4().hex[:8]}"
        try:
            batch = await self.sdk.messages.batches.create(
                requests=[{"custom_id": custom_id, "params": params}]
            )
        except Exception as error:
            raise classify(error, provider="anthropic", key_var=KEY_VAR, started=False) from error
        try:
            await self._wait(batch.id)
        except BaseException:
            with anyio.CancelScope(shield=True):
                await self._cancel(batch.id)
            raise
        return self.response(params, await self._result(batch.id, custom_id))

    async def _wait(self, batch_id: str) -> None:
        delay = self.options.batch_poll_s
        while True:
            try:
                batch = await self.sdk.messages.batches.retrieve(batch_id)
            except Exception as error:
                mapped = classify(error, provider="anthropic", key_var=KEY_VAR, started=False)
                if not isinstance(mapped, TransientModelError):
                    raise mapped from error
                batch = None
            if batch is not None and batch.processing_status == "ended":
                return
            await anyio.sleep(delay)
            delay = min(delay * 1.5, max(MAX_POLL_S, self.options.batch_poll_s))

    async def _result(self, batch_id: str, custom_id: str) -> dict[str, Any]:
        try:
            results = await self.sdk.messages.batches.results(batch_id)
            found = [item.to_dict() async for item in results]
        except Exception as error:
            raise classify(error, provider="anthropic", key_var=KEY_VAR, started=True) from error
        mine = next((item for item in found if item.get("custom_id") == custom_id), None)
        if mine is None:
            raise ModelCallError(f"batch {batch_id} ended without a result for {custom_id}")
        result = mine.get("result") or {}
        kind = result.get("type")
        if kind == "succeeded":
            return dict(result.get("message") or {})
        if kind == "errored":
            error = (result.get("error") or {}).get("error") or result.get("error") or {}
            if error.get("type") in TRANSIENT_ERROR_TYPES:
                raise TransientModelError(f"batch request errored: {error.get('type')}")
            raise ModelCallError(f"batch request errored: {error}")
        raise TransientModelError(f"batch request {kind or 'had no result'}")

    async def _cancel(self, batch_id: str) -> None:
        try:
            with anyio.move_on_after(10):
                await self.sdk.messages.batches.cancel(batch_id)
        except Exception as error:  # best effort: the batch expires on its own
            log.debug("cancelling batch %s failed: %s", batch_id, error)
