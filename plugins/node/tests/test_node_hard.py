"""Every hard task fails as shipped and passes with its reference solution
(``garuda suite check``'s rules)."""

from __future__ import annotations

import pytest

from garuda_evals.runner.check import Verdict
from garuda_evals.testing import assert_sound, check_soundness
from garuda_evals_node.held_out import held_out_run
from garuda_evals_node.suites import load_hard

HARD_IDS = ["coupon", "event", "import", "rename", "rounding", "unused"]


@pytest.fixture(scope="module")
def verdicts(node) -> dict[tuple[str, bool, str], Verdict]:
    """Both self-tests of every hard task, run by the suite check once; the suite is sound."""
    soundness = check_soundness(load_hard(), parallel=3)
    assert_sound(soundness)
    found: dict[tuple[str, bool, str], Verdict] = {}
    for item in soundness.tasks:
        found[(item.task, False, "none")] = item.shipped
        found[(item.task, True, "none")] = item.solved[0]
    return found


def test_hard_has_the_six_tasks_on_shopkit() -> None:
    suite = load_hard()
    assert [task.id for task in suite.tasks()] == HARD_IDS
    for task in suite.tasks():
        assert task.requires == ["node"]
        assert task.solution is not None and (task.solution.files or task.solution.delete)
        assert "package.json" in task.protected and "test/" in task.protected
        assert task.files["package.json"].startswith('{\n  "name": "shopkit"')
        assert len(task.files) >= 107


def test_hard_solutions_touch_several_files() -> None:
    for task in load_hard().tasks():
        assert task.solution is not None
        touched = set(task.solution.files) | set(task.solution.delete)
        if task.id != "rounding":
            assert len(touched) >= 3, task.id


@pytest.mark.parametrize("task_id", HARD_IDS)
def test_hard_task_fails_as_shipped(verdicts, task_id: str) -> None:
    verdict = verdicts[(task_id, False, "none")]
    assert not verdict.passed
    assert verdict.check is not None, verdict.reason
    assert verdict.check.exit_code != 0


@pytest.mark.parametrize("task_id", HARD_IDS)
def test_hard_task_passes_with_reference_solution(verdicts, task_id: str) -> None:
    verdict = verdicts[(task_id, True, "none")]
    assert verdict.passed, f"{verdict.reason}\n{verdict.check.output_tail if verdict.check else ''}"
    assert verdict.check is not None and verdict.check.tests_ran and verdict.check.tests_ran >= 150


@pytest.mark.parametrize("task_id", HARD_IDS)
def test_pinned_tests_are_what_the_reference_solution_passes(verdicts, task_id: str) -> None:
    """expected-tests.json is current (regenerate: garuda suite check hard --pin)."""
    task = next(task for task in load_hard().tasks() if task.id == task_id)
    assert task.expected_tests, f"{task_id} has no pinned tests"
    verdict = verdicts[(task_id, True, "none")]
    assert sorted(verdict.passed_tests) == task.expected_tests, (
        "stale pins: run garuda suite check hard --pin"
    )


@pytest.mark.parametrize("task_id", HARD_IDS)
def test_hard_task_has_held_out_tests_with_two_canaries_each(verdicts, task_id: str) -> None:
    """At least three held-out tests and two canaries per test, passed and failed by the
    reference solution."""
    task = next(task for task in load_hard().tasks() if task.id == task_id)
    assert task.held_out is not None
    run = held_out_run(task.held_out.tests, task.held_out.canaries, ())
    assert len(run.must_pass) >= 3
    assert len(run.must_fail) == 2 * len(run.must_pass)
    solved = verdicts[(task_id, True, "none")]
    assert set(solved.held_out.values()) == {"passed"}
    assert set(solved.held_out_canaries.values()) == {"failed"}
    assert len(solved.held_out) == len(set(run.must_pass.values()))
