"""One model call of a turn: logged, retried with backoff, metered, and shown to the runner."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from garuda_evals.api import AgentTurn
from garuda_evals_agent.messages import ModelRequest, ModelResponse, estimate_tokens
from garuda_evals_agent.meter import UsageMeter
from garuda_evals_agent.providers.base import ModelClient
from garuda_evals_agent.retry import RetryPolicy, with_retries
from garuda_evals_agent.transcribe import TurnLog


@dataclass
class TurnState:
    """What a turn has done so far."""

    steps: int = 0
    cutoffs: int = 0
    notices: list[str] = field(default_factory=list)
    meter: UsageMeter = field(default_factory=UsageMeter)

    def report(self, turn: AgentTurn) -> None:
        """Keep the runner's view current, so a timeout or an error still shows what was used."""
        turn.progress.steps = self.steps
        turn.progress.usage = self.meter.usage


async def call_model(
    turn: AgentTurn,
    client: ModelClient,
    request: ModelRequest,
    state: TurnState,
    log: TurnLog,
    policy: RetryPolicy,
) -> ModelResponse:
    """Send ``request``, retrying transient failures; a failure that stays raises."""
    body = client.request_body(request)
    log.request(request.step, body)
    reservation = request.max_tokens + estimate_tokens(json.dumps(body, ensure_ascii=False))

    def on_error(attempt: int, wait: float | None, error: Exception) -> None:
        if getattr(error, "billed_unknown", False):
            state.meter.add_lost(reservation)
            state.report(turn)
        if wait is None:
            log.failed(request.step, attempt, error)
            return
        log.retry(request.step, attempt, wait, error)
        turn.events(
            "retry", f"model call failed ({error}); retry {attempt}/{policy.retries} in {wait:.1f}s"
        )

    response = await with_retries(lambda: client.complete(request), policy, on_error)
    state.meter.add(response.usage)
    state.report(turn)
    log.response(request.step, response)
    return response
