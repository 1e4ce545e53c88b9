"""The verdict rules: what the runner's evidence must show for a PASS."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from garuda_evals.checks.base import Canaries, CheckRunner, HeldOutRun, TestCase, TestEvidence
from garuda_evals.executors.base import CommandResult

SHOWN_IDS = 5
TAMPERED = "the test runner's results were tampered with"
SEVERITY = {"passed": 0, "skipped": 1, "failed": 2, "error": 3}


@dataclass(frozen=True)
class Ruling:
    """PASS or FAIL, with the reason for a FAIL."""

    passed: bool
    reason: str | None = None


def listed(ids: Iterable[str]) -> str:
    """``a, b, c (+2 more)``."""
    items = list(ids)
    shown = ", ".join(items[:SHOWN_IDS])
    return f"{shown} (+{len(items) - SHOWN_IDS} more)" if len(items) > SHOWN_IDS else shown


def by_id(cases: Iterable[TestCase]) -> dict[str, TestCase]:
    """Cases by id; an id reported twice keeps its worst outcome."""
    found: dict[str, TestCase] = {}
    for case in cases:
        known = found.get(case.id)
        if known is None or SEVERITY[case.outcome] > SEVERITY[known.outcome]:
            found[case.id] = case
    return found


def canary_problem(
    cases: dict[str, TestCase], canaries: Canaries, nonce: str, exit_code: int | None
) -> str | None:
    """Why the canaries show a tampered runner, or None when they came out as planted."""
    failing, passing = cases.get(canaries.must_fail), cases.get(canaries.must_pass)
    if failing is None:
        return "the must-fail canary test is missing from the report"
    if failing.outcome not in ("failed", "error"):
        return f"the must-fail canary test was reported {failing.outcome}"
    if nonce not in failing.message:
        return "the must-fail canary test failed without its own message"
    if passing is None:
        return "the must-pass canary test is missing from the report"
    if passing.outcome != "passed":
        return f"the must-pass canary test was reported {passing.outcome}"
    if exit_code == 0:
        return "the check exited 0 although a test failed"
    return None


def _expected_problem(cases: dict[str, TestCase], expected: list[str]) -> str | None:
    missing = [test for test in expected if test not in cases]
    not_passed = [
        f"{test} ({cases[test].outcome})"
        for test in expected
        if test in cases and cases[test].outcome != "passed"
    ]
    if not missing and not not_passed:
        return None
    parts = []
    if not_passed:
        parts.append(f"not passed: {listed(not_passed)}")
    if missing:
        parts.append(f"missing from the report: {listed(missing)}")
    return f"expected tests did not pass ({'; '.join(parts)})"


def held_out_problem(
    cases: dict[str, TestCase], held_out: HeldOutRun, exit_code: int | None
) -> str | None:
    """Why the held-out tests and their canaries deny a PASS, or None: every held-out test
    passed, every canary failed, and the runner said so with a non-zero exit. Reasons name
    tests by the task's own names, not this run's."""
    not_passed = [
        f"{name} ({cases[test].outcome if test in cases else 'missing'})"
        for test, name in held_out.must_pass.items()
        if test not in cases or cases[test].outcome != "passed"
    ]
    if not_passed:
        return (
            f"held-out tests did not pass ({len(not_passed)} of {len(held_out.must_pass)}): "
            f"{listed(not_passed)}"
        )
    not_failed = [
        f"{name} ({cases[test].outcome if test in cases else 'missing'})"
        for test, name in held_out.must_fail.items()
        if test not in cases or cases[test].outcome not in ("failed", "error")
    ]
    if not_failed:
        return f"{TAMPERED}: canaries shaped like the held-out tests did not fail: {listed(not_failed)}"
    if held_out.must_fail and exit_code == 0:
        return f"{TAMPERED}: the check exited 0 although a test failed"
    return None


def rule(
    result: CommandResult,
    evidence: TestEvidence,
    *,
    runner: CheckRunner,
    limit_s: float,
    canaries: Canaries | None,
    nonce: str,
    expected: list[str] | None,
    held_out: HeldOutRun | None = None,
) -> Ruling:
    """PASS needs the runner's own report to show the task's tests passing, and nothing else.

    With canaries: the must-fail one failed with the nonce, the must-pass one passed, and
    the runner said so with a non-zero exit; every other test passed. Without them: exit 0.
    With ``expected`` ids: each is present and passed. Without: at least one test ran and
    none was skipped. With ``held_out``: then every held-out test passed and every canary
    shaped like them failed (``held_out_problem``).
    """
    code = result.exit_code
    if result.timed_out:
        return Ruling(False, f"check timed out after {limit_s:.0f} s")
    if evidence.tests_ran is None:
        if code != 0:
            return Ruling(False, f"check exited {code}: {runner.failure_summary(result)[:200]}")
        return Ruling(False, f"check exited 0 but no evidence that tests ran ({evidence.detail})")
    planted_failures = canaries is not None or bool(held_out and held_out.must_fail)
    if not evidence.cases and not planted_failures:
        return _counts_only(result, evidence, runner)
    cases = by_id(evidence.cases)
    if canaries is not None:
        problem = canary_problem(cases, canaries, nonce, code)
        if problem:
            return Ruling(False, f"{TAMPERED}: {problem}")
        cases = {
            k: v for k, v in cases.items() if k not in (canaries.must_fail, canaries.must_pass)
        }
    held: dict[str, TestCase] = {}
    if held_out is not None:
        judged_apart = {*held_out.must_pass, *held_out.must_fail}
        held = {k: v for k, v in cases.items() if k in judged_apart}
        cases = {k: v for k, v in cases.items() if k not in judged_apart}
    ruling = _visible_ruling(result, evidence, runner, cases, planted_failures, expected)
    if not ruling.passed or held_out is None:
        return ruling
    problem = held_out_problem(held, held_out, code)
    return Ruling(False, problem) if problem else ruling


def _visible_ruling(
    result: CommandResult,
    evidence: TestEvidence,
    runner: CheckRunner,
    cases: dict[str, TestCase],
    planted_failures: bool,
    expected: list[str] | None,
) -> Ruling:
    """The rule for the tests the task shows (planted tests already taken out of ``cases``);
    ``planted_failures``: the judge planted tests that must fail, so the exit is not 0."""
    code = result.exit_code
    failing = [case.id for case in cases.values() if case.outcome in ("failed", "error")]
    if failing and not planted_failures and code == 0:
        return Ruling(False, f"check exited 0 but the runner reports failures: {listed(failing)}")
    if failing:
        return Ruling(False, f"check exited {code}: {len(failing)} failed: {listed(failing)}")
    if not planted_failures and code != 0:
        return Ruling(False, f"check exited {code}: {runner.failure_summary(result)[:200]}")
    if expected is not None:
        problem = _expected_problem(cases, expected)
        return Ruling(False, problem) if problem else Ruling(True)
    ran = [case for case in cases.values() if case.outcome == "passed"]
    skipped = [case.id for case in cases.values() if case.outcome == "skipped"]
    if not ran:
        return Ruling(False, f"check exited {code} but no test ran ({evidence.detail})")
    if skipped:
        return Ruling(False, f"tests were skipped: {listed(skipped)}")
    return Ruling(True)


def _counts_only(result: CommandResult, evidence: TestEvidence, runner: CheckRunner) -> Ruling:
    """The rule for a runner that reports counts but no test cases (nothing to pin)."""
    code = result.exit_code
    if code != 0:
        return Ruling(False, f"check exited {code}: {runner.failure_summary(result)[:200]}")
    if not evidence.tests_ran:
        return Ruling(False, f"check exited 0 but no test ran ({evidence.detail})")
    if evidence.failed:
        return Ruling(False, f"check exited 0 but the runner reports failures ({evidence.detail})")
    return Ruling(True)
