"""The python suite is sound by ``garuda suite check``'s rules: each task fails as shipped,
passes with its reference solution on test evidence, and its pins are current."""

from __future__ import annotations

from garuda_evals.suites.base import Suite
from garuda_evals.testing import assert_sound, check_soundness


def test_the_python_suite_is_sound(python_suite: Suite) -> None:
    soundness = check_soundness(python_suite)
    assert_sound(soundness)
    problems = []
    for item in soundness.tasks:
        shipped, solved = item.shipped, item.solved[0]
        if shipped.check is None or not (shipped.reason or "").startswith("check exited"):
            problems.append(f"{item.task}: fails as shipped for another reason: {shipped.reason}")
        if not solved.check or not solved.check.tests_ran or solved.check.tests_ran < 5:
            problems.append(f"{item.task}: too few tests ran when solved: {solved.check}")
        if not item.pinned:
            problems.append(f"{item.task}: not pinned (garuda suite check python --pin)")
    assert not problems, "\n".join(problems)
