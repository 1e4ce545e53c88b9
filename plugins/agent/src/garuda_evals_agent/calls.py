"""One model call of a turn: logged, retried with backoff, metered, and shown to the runner."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import anyio

from garuda_evals.api import AgentTurn
from garuda_evals_agent.messages import ModelRequest, ModelResponse, estimate_tokens
from garuda_evals_agent.meter import IN_FLIGHT, UsageMeter
from garuda_evals_agent.providers.base import ModelClient
from garuda_evals_agent.retry import RetryPolicy, with_retries
from garuda_evals_agent.transcribe import TurnLog


@dataclass
class TurnState:
    """What a turn (or a subagent's loop inside it) has done so far.

    A subagent's state shares its parent's meter, tool counts and notices, and keeps its own
    step count; the runner sees the main loop's steps.
    """

    model: str = ""
    steps: int = 0
    cutoffs: int = 0
    notices: list[str] = field(default_factory=list)
    meter: UsageMeter = field(default_factory=UsageMeter)
    tool_calls: dict[str, int] = field(default_factory=dict)
    parent: TurnState | None = None

    def child(self, model: str) -> TurnState:
        """The state of a subagent loop on ``model`` inside this turn."""
        return TurnState(
            model=model,
            notices=self.notices,
            meter=self.meter,
            tool_calls=self.tool_calls,
            parent=self,
        )

    def count_call(self, name: str) -> None:
        """One more call of tool ``name``."""
        self.tool_calls[name] = self.tool_calls.get(name, 0) + 1

    def report(self, turn: AgentTurn) -> None:
        """Keep the runner's view current, so a timeout or an error still shows what was used."""
        if self.parent is not None:
            self.parent.report(turn)
            return
        turn.progress.steps = self.steps
        turn.progress.usage = self.meter.usage
        turn.progress.tool_calls = dict(self.tool_calls)
        turn.progress.usage_by_model = dict(self.meter.by_model)


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
            state.meter.add_lost(reservation, state.model)
            state.report(turn)
        if wait is None:
            log.failed(request.step, attempt, error)
            return
        log.retry(request.step, attempt, wait, error)
        turn.events(
            "retry", f"model call failed ({error}); retry {attempt}/{policy.retries} in {wait:.1f}s"
        )

    async def attempt() -> ModelResponse:
        try:
            return await client.complete(request)
        except anyio.get_cancelled_exc_class():
            # Ctrl-C or the task limit while the call was out: it may be billed, unreported
            state.meter.add_lost(reservation, state.model, IN_FLIGHT)
            state.report(turn)
            raise

    response = await with_retries(attempt, policy, on_error)
    state.meter.add(response.usage, model=state.model)
    state.report(turn)
    log.response(request.step, response)
    return response
