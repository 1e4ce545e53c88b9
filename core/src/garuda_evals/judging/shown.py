"""What a check's evidence shows a user: the task's own tests counted, the canaries apart.

The runner reports every test case, the judge's planted canaries among them (one must fail
on every run) and the task's held-out tests with the canaries shaped like them (which must
all fail). Counted as they come, a PASS would read "11 tests, 1 failed" and a FAIL's
evidence would count one failure more than its reason. Here the cases are counted as the
verdict rules read them: one case per id (its worst outcome), the canaries and held-out
tests left out and named on their own.
"""

from __future__ import annotations

from dataclasses import dataclass

from garuda_evals.checks.base import Canaries, HeldOutRun, TestCase, TestEvidence
from garuda_evals.checks.junit import summarize
from garuda_evals.judging.verdict import by_id


@dataclass(frozen=True)
class ShownEvidence:
    """The task's own tests that ran and failed, and the line that describes the evidence."""

    tests_ran: int | None
    tests_failed: int | None
    detail: str


def _canary_line(cases: dict[str, TestCase], canaries: Canaries) -> str:
    failing, passing = cases.get(canaries.must_fail), cases.get(canaries.must_pass)
    must_fail = failing.outcome if failing else "missing"
    must_pass = passing.outcome if passing else "missing"
    return f"canaries (not counted): must-fail {must_fail}, must-pass {must_pass}"


def _runner_note(evidence: TestEvidence) -> str:
    """What the runner's detail says beyond its own counts of every case (often nothing)."""
    counts = summarize(list(evidence.cases)).detail
    if evidence.detail.startswith(counts):
        return evidence.detail.removeprefix(counts).removeprefix("; ")
    return evidence.detail


def _held_out_line(cases: dict[str, TestCase], held_out: HeldOutRun) -> str:
    passed = sum(cases[t].outcome == "passed" for t in held_out.must_pass if t in cases)
    failed = sum(cases[t].outcome in ("failed", "error") for t in held_out.must_fail if t in cases)
    return (
        f"held out (not counted): {passed} of {len(held_out.must_pass)} passed, "
        f"{failed} of {len(held_out.must_fail)} canaries failed"
    )


def shown_evidence(
    evidence: TestEvidence, canaries: Canaries | None, held_out: HeldOutRun | None = None
) -> ShownEvidence:
    """The counts and detail report.json keeps of ``evidence``; the runner's own when it
    reported no test case (no report, or counts only)."""
    if evidence.tests_ran is None or not evidence.cases:
        return ShownEvidence(evidence.tests_ran, evidence.failed, evidence.detail)
    cases = by_id(evidence.cases)
    planted = {canaries.must_fail, canaries.must_pass} if canaries else set()
    if held_out is not None:
        planted |= {*held_out.must_pass, *held_out.must_fail}
    own = [case for case_id, case in cases.items() if case_id not in planted]
    failed = sum(case.outcome in ("failed", "error") for case in own)
    skipped = sum(case.outcome == "skipped" for case in own)
    ran = len(own) - skipped
    parts = [f"{ran} ran, {failed} failed, {skipped} skipped"]
    if canaries is not None:
        parts.append(_canary_line(cases, canaries))
    if held_out is not None:
        parts.append(_held_out_line(cases, held_out))
    note = _runner_note(evidence)
    if note:
        parts.append(note)
    return ShownEvidence(ran, failed, "; ".join(parts))
