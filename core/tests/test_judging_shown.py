"""What a check's evidence shows: the task's own tests counted, the canaries named apart."""

from __future__ import annotations

from garuda_evals.checks.base import Canaries, HeldOutRun, TestCase, TestEvidence
from garuda_evals.checks.junit import summarize
from garuda_evals.judging.shown import ShownEvidence, shown_evidence

CANARIES = Canaries(files={}, must_fail="c::must_fail", must_pass="c::must_pass")
PLANTED = (TestCase("c::must_fail", "failed", "nonce"), TestCase("c::must_pass", "passed"))
AS_PLANTED = "canaries (not counted): must-fail failed, must-pass passed"


def test_a_pass_counts_no_failure_and_names_the_canaries_apart() -> None:
    own = (TestCase("t::a", "passed"), TestCase("t::b", "passed"))
    shown = shown_evidence(summarize([*own, *PLANTED]), CANARIES)
    assert shown == ShownEvidence(2, 0, f"2 ran, 0 failed, 0 skipped; {AS_PLANTED}")


def test_failures_errors_and_skips_of_the_own_tests_are_counted_apart() -> None:
    own = (
        TestCase("t::a", "failed"),
        TestCase("t::b", "error"),
        TestCase("t::c", "skipped"),
        TestCase("t::d", "passed"),
    )
    shown = shown_evidence(summarize([*own, *PLANTED]), CANARIES)
    assert shown == ShownEvidence(3, 2, f"3 ran, 2 failed, 1 skipped; {AS_PLANTED}")


def test_an_id_reported_twice_counts_once_with_its_worst_outcome() -> None:
    """As the FAIL reason counts it (verdict.by_id)."""
    own = (TestCase("t::a", "passed"), TestCase("t::a", "error"), TestCase("t::b", "passed"))
    shown = shown_evidence(summarize([*own, *PLANTED]), CANARIES)
    assert (shown.tests_ran, shown.tests_failed) == (2, 1)


def test_canaries_that_did_not_come_out_as_planted_are_named() -> None:
    cases = (TestCase("t::a", "passed"), TestCase("c::must_fail", "skipped"))
    shown = shown_evidence(summarize(list(cases)), CANARIES)
    assert shown.detail == (
        "1 ran, 0 failed, 0 skipped; canaries (not counted): must-fail skipped, must-pass missing"
    )
    passing = shown_evidence(summarize([TestCase("c::must_pass", "failed")]), CANARIES)
    assert passing.detail.endswith("must-fail missing, must-pass failed")
    assert (passing.tests_ran, passing.tests_failed) == (0, 0)


def test_without_canaries_every_case_counts() -> None:
    cases = [TestCase("t::a", "passed"), *PLANTED]
    assert shown_evidence(summarize(cases), None) == ShownEvidence(
        3, 1, "3 ran, 1 failed, 0 skipped"
    )


def test_what_the_runner_adds_to_its_counts_is_kept() -> None:
    evidence = summarize([TestCase("t::a", "failed"), *PLANTED])
    noted = TestEvidence(
        tests_ran=evidence.tests_ran,
        failed=evidence.failed,
        detail=f"{evidence.detail}; test file(s) ended before reporting any test: a.test.js",
        cases=evidence.cases,
    )
    assert shown_evidence(noted, CANARIES).detail == (
        f"1 ran, 1 failed, 0 skipped; {AS_PLANTED}; "
        "test file(s) ended before reporting any test: a.test.js"
    )
    own_words = TestEvidence(tests_ran=1, failed=1, detail="report rewritten", cases=evidence.cases)
    assert shown_evidence(own_words, CANARIES).detail == (
        f"1 ran, 1 failed, 0 skipped; {AS_PLANTED}; report rewritten"
    )


def test_no_report_or_counts_only_stay_as_the_runner_said() -> None:
    missing = TestEvidence(tests_ran=None, detail="no JUnit report was written")
    assert shown_evidence(missing, CANARIES) == ShownEvidence(
        None, 0, "no JUnit report was written"
    )
    counts = TestEvidence(tests_ran=4, failed=1, detail="4 tests, 1 failure")
    assert shown_evidence(counts, CANARIES) == ShownEvidence(4, 1, "4 tests, 1 failure")
    empty = TestEvidence(tests_ran=None, cases=PLANTED, detail="cut")
    assert shown_evidence(empty, CANARIES) == ShownEvidence(None, 0, "cut")


HELD_OUT = HeldOutRun(
    files={},
    must_pass={"h::one": "tests/more.py::test_one", "h::two": "tests/more.py::test_two"},
    must_fail={"h::c1": "a", "h::c2": "b", "h::c3": "c", "h::c4": "d"},
)


def test_held_out_tests_and_their_canaries_are_counted_apart() -> None:
    held = (
        TestCase("h::one", "passed"),
        TestCase("h::two", "failed"),
        TestCase("h::c1", "failed"),
        TestCase("h::c2", "error"),
        TestCase("h::c3", "passed"),
    )
    own = (TestCase("t::a", "passed"),)
    shown = shown_evidence(summarize([*own, *PLANTED, *held]), CANARIES, HELD_OUT)
    assert shown == ShownEvidence(
        1,
        0,
        f"1 ran, 0 failed, 0 skipped; {AS_PLANTED}; "
        "held out (not counted): 1 of 2 passed, 2 of 4 canaries failed",
    )
