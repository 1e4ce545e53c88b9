"""Which runs a regrade judges again, and the row a new verdict makes
(``runner/regrade_rules.py``): cheap enough to run against each of its mutants."""

from __future__ import annotations

from typing import Any

import pytest

from garuda_evals.agents.base import BUDGET_STOP
from garuda_evals.judging.judge import Verdict
from garuda_evals.models.result import CheckOutcome, Status, TaskResult
from garuda_evals.models.usage import Usage
from garuda_evals.runner.regrade_rules import (
    direction,
    regradable,
    regraded_row,
    stopped_by_limit,
)

LIMIT_S = 10.0
USAGE = Usage(input_tokens=7, output_tokens=3, cost_usd=0.25)
PASSING = Verdict(
    passed=True,
    reason=None,
    check=CheckOutcome(command="check", exit_code=0, tests_ran=2),
    protected_changes=["changed tests/x.py"],
    left_out=["a.bin: too big"],
    suspicious=["src/a.py:1: imports _pytest"],
)
FAILING = Verdict(passed=False, reason="check exited 1", check=CheckOutcome(command="check"))


def row(
    status: Status = Status.FAIL,
    *,
    stop: str = "done",
    agent_ms: int = 9_999,
    change: str | None = "changes/t.diff",
) -> TaskResult:
    return TaskResult(
        task="t",
        suite="s",
        status=status,
        stop_reason=stop,
        agent_duration_ms=agent_ms,
        duration_ms=12_345,
        steps=4,
        usage=USAGE,
        change=change,
        failure="the old reason",
    )


@pytest.mark.parametrize("stop", ["timeout", BUDGET_STOP, "interrupted"])
def test_a_limits_stop_reason_is_a_stop_by_a_limit(stop: str) -> None:
    assert stopped_by_limit(row(stop=stop, agent_ms=1), LIMIT_S)
    assert not regradable(row(stop=stop, agent_ms=1), LIMIT_S)


@pytest.mark.parametrize("stop", ["done", "max_steps", "exit 0", "exit 124", ""])
def test_the_agents_own_stop_within_the_limit_is_not(stop: str) -> None:
    assert not stopped_by_limit(row(stop=stop), LIMIT_S)
    assert regradable(row(stop=stop), LIMIT_S)


def test_a_turn_that_lasted_the_whole_limit_was_stopped_by_it_whatever_it_said() -> None:
    assert not stopped_by_limit(row(agent_ms=9_999), LIMIT_S)
    assert stopped_by_limit(row(agent_ms=10_000), LIMIT_S)
    assert stopped_by_limit(row(agent_ms=10_001), LIMIT_S)
    assert not stopped_by_limit(row(agent_ms=10_000), 10.001)
    assert not regradable(row(agent_ms=10_000), LIMIT_S)


@pytest.mark.parametrize("status", [Status.PASS, Status.FAIL])
def test_a_judged_run_with_a_kept_change_is_judged_again(status: Status) -> None:
    assert regradable(row(status), LIMIT_S)


@pytest.mark.parametrize("status", [Status.ERR, Status.INTERRUPTED])
def test_error_and_interrupted_runs_are_not(status: Status) -> None:
    assert not regradable(row(status), LIMIT_S)


def test_a_run_without_a_kept_change_is_not() -> None:
    assert not regradable(row(change=None), LIMIT_S)


def test_a_new_verdict_replaces_the_judges_fields_and_keeps_what_the_agent_used() -> None:
    before = row(Status.FAIL)
    after = regraded_row(before, PASSING, LIMIT_S)
    assert after.status is Status.PASS and after.failure is None
    assert after.check == PASSING.check
    assert after.protected_changes == PASSING.protected_changes
    assert after.left_out == PASSING.left_out
    assert after.suspicious == PASSING.suspicious
    kept = ("usage", "steps", "duration_ms", "agent_duration_ms", "stop_reason", "change")
    assert {k: getattr(after, k) for k in kept} == {k: getattr(before, k) for k in kept}
    assert before.status is Status.FAIL and before.failure == "the old reason"

    failed = regraded_row(row(Status.PASS), FAILING, LIMIT_S)
    assert failed.status is Status.FAIL and failed.failure == "check exited 1"
    assert failed.check == FAILING.check and failed.protected_changes == []


@pytest.mark.parametrize(
    "kept",
    [
        {"stop": "timeout", "agent_ms": 1},
        {"agent_ms": 10_000},
        {"status": Status.ERR},
        {"status": Status.INTERRUPTED, "stop": "interrupted"},
        {"change": None},
    ],
)
def test_a_run_a_regrade_may_not_judge_keeps_its_row_even_when_the_check_passes(
    kept: dict[str, Any],
) -> None:
    before = row(**kept)
    assert regraded_row(before, PASSING, LIMIT_S) is before


def test_a_flip_is_up_to_pass_down_from_pass_or_other() -> None:
    assert direction(Status.FAIL, Status.PASS) == "up"
    assert direction(Status.ERR, Status.PASS) == "up"
    assert direction(Status.PASS, Status.FAIL) == "down"
    assert direction(Status.PASS, Status.ERR) == "down"
    assert direction(Status.FAIL, Status.ERR) == "other"
    for status in Status:
        assert direction(status, status) is None
