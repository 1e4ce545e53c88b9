"""The held-out problems suite check names: canaries are asked of renamed held-out tests,
not of tests with fixed ids (an imported benchmark's test patch)."""

from __future__ import annotations

from garuda_evals.judging.judge import Verdict
from garuda_evals.models.task import CheckSpec, HeldOut, Task
from garuda_evals.suites.soundness import NO_CANARIES, _held_out_problems, stale_pins


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


def test_stale_pins_name_what_the_reference_did_not_pass_and_what_it_passed_unpinned() -> None:
    assert stale_pins(None, ("a",)) is None
    assert stale_pins(["b", "a"], ("a", "b")) is None
    assert stale_pins(["a", "b"], ("a", "c")) == (
        "pinned tests are stale: expected-tests.json does not list the tests the reference "
        "solution makes pass (pinned but not passed: b; passed but not pinned: c; refresh with "
        "`garuda suite check --pin`)"
    )
    assert stale_pins(["a", "b"], ("a",)) == (
        "pinned tests are stale: expected-tests.json does not list the tests the reference "
        "solution makes pass (pinned but not passed: b; refresh with `garuda suite check --pin`)"
    )
