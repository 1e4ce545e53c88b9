"""Add up the calls of one turn into core's Usage, honestly."""

from __future__ import annotations

from garuda_evals.api import Usage
from garuda_evals_agent.messages import CallUsage

UNREPORTED = "a response came without a usage report; its reservation counts"
BROKE_OFF = "a response broke off after it began; its reservation counts"
IN_FLIGHT = "a model call was on its way when the run stopped; its reservation counts"


class UsageMeter:
    """Sums provider-reported tokens; unreported calls and unknown prices stay visible."""

    def __init__(self) -> None:
        self.usage = Usage()
        self.by_model: dict[str, Usage] = {}

    def add(self, call: CallUsage, note: str = UNREPORTED, model: str = "") -> None:
        """Count one model call of ``model``; ``note`` explains an unreported one."""
        notes: list[str] = []
        if not call.reported:
            notes.append(note)
        if call.cost_usd is None:
            notes.append(call.price_note or "no known price")
        counted = Usage(
            input_tokens=call.input_tokens,
            cache_read_tokens=call.cache_read_tokens,
            cache_write_tokens=call.cache_write_tokens,
            output_tokens=call.output_tokens,
            reasoning_tokens=call.reasoning_tokens,
            unreported_tokens=0 if call.reported else call.reservation,
            tokens_known=call.reported,
            cost_usd=call.cost_usd or 0.0,
            cost_incomplete=(not call.reported) or call.cost_usd is None,
            requests=1,
            unreported_requests=0 if call.reported else 1,
            notes=notes,
        )
        self.usage = self.usage + counted
        if model:
            self.by_model[model] = self.by_model.get(model, Usage()) + counted

    def add_lost(self, reservation: int, model: str = "", note: str = BROKE_OFF) -> None:
        """A call that may have been billed but never reported its usage: its response broke
        off after it began, or the run stopped while it was on its way."""
        lost = CallUsage(reported=False, reservation=reservation, cost_usd=0.0)
        self.add(lost, note, model)
