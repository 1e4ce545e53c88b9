"""Which runs ``garuda regrade`` judges again, and the row a new verdict makes.

A regrade judges a run's kept change again with today's check; no agent runs. Only a run
the judge decided (PASS or FAIL) with a kept change is judged again. A run whose agent a
limit stopped keeps its row: the task time limit (its stop reason, or an agent turn that
lasted the whole limit, as one that blocked past it does), the spend cap, Ctrl-C. Its change
is what the folder held when the limit cut the agent off, and its verdict is the limit's,
not the check's: judging it again could turn a run the limit failed into a PASS.
"""

from __future__ import annotations

from garuda_evals.agents.base import BUDGET_STOP
from garuda_evals.judging.judge import Verdict
from garuda_evals.models.result import Status, TaskResult

JUDGED = frozenset({Status.PASS, Status.FAIL})
LIMIT_STOPS = frozenset({"timeout", BUDGET_STOP, "interrupted"})
"""Stop reasons of an agent turn that a harness limit ended."""


def stopped_by_limit(result: TaskResult, task_timeout_s: float) -> bool:
    """True when a limit ended the agent's turn: a limit's stop reason, or a turn that lasted
    ``task_timeout_s`` (the run's task time limit) or longer."""
    return result.stop_reason in LIMIT_STOPS or result.agent_duration_ms >= task_timeout_s * 1000


def regradable(result: TaskResult, task_timeout_s: float) -> bool:
    """A run the judge decided, with a kept change, whose agent no limit stopped."""
    return (
        result.status in JUDGED
        and result.change is not None
        and not stopped_by_limit(result, task_timeout_s)
    )


def regraded_row(result: TaskResult, verdict: Verdict, task_timeout_s: float) -> TaskResult:
    """``result`` with today's verdict (usage, cost, steps and times stay the run's); a run
    that is not ``regradable`` keeps its row whatever the verdict."""
    if not regradable(result, task_timeout_s):
        return result
    return result.model_copy(
        update={
            "status": Status.PASS if verdict.passed else Status.FAIL,
            "failure": verdict.reason,
            "check": verdict.check,
            "protected_changes": verdict.protected_changes,
            "left_out": verdict.left_out,
            "suspicious": verdict.suspicious,
        }
    )


def direction(before: Status, after: Status) -> str | None:
    """``up`` (now PASS), ``down`` (PASS no more), ``other`` (another change), None (same)."""
    if after is before:
        return None
    if after is Status.PASS:
        return "up"
    return "down" if before is Status.PASS else "other"
