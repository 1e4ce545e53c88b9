"""The held-out problems suite check names: canaries are asked of renamed held-out tests,
not of tests with fixed ids (an imported benchmark's test patch)."""

from __future__ import annotations

from garuda_evals.judging.judge import Verdict
from garuda_evals.models.task import CheckSpec, HeldOut, Task
from garuda_evals.suites.soundness import NO_CANARIES, _held_out_problems


def _task(held_out: HeldOut) -> Task:
    check = CheckSpec(command="true", runner="junit")
    return Task(id="t", title="t", prompt="p", check=check, held_out=held_out)


def test_held_out_tests_without_canaries_are_a_problem_unless_their_ids_are_fixed() -> None:
    shipped, solved = Verdict(False, "failed", None), (Verdict(True, None, None),)
    renamed = _task(HeldOut(tests={"tests/test_a.py": "def test_a(): pass\n"}))
    problems = _held_out_problems(renamed, shipped, solved)
    assert [problem.split(":")[0] for problem in problems] == [NO_CANARIES]
    fixed = _task(HeldOut(tests={"tests/test_a.py": "def test_a(): pass\n"}, fixed_ids=True))
    assert _held_out_problems(fixed, shipped, solved) == []
