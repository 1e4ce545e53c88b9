"""The verdict rules, JUnit parsing and the summary on their own: the edges a small bug moves."""

from __future__ import annotations

from pathlib import Path

import pytest

from garuda_evals.checks.base import Canaries, HeldOutRun, TestCase, TestEvidence
from garuda_evals.checks.junit import EVIDENCE_DIR, JUnitCheckRunner, read_junit
from garuda_evals.executors.base import CommandResult
from garuda_evals.judging.verdict import TAMPERED, Ruling, by_id, listed, rule
from garuda_evals.models.result import Status, TaskResult
from garuda_evals.models.usage import Usage
from garuda_evals.report.summary import summarize, task_means
from garuda_evals.report.table import rates_line, totals_line


def _result(code: int | None, *, timed_out: bool = False) -> CommandResult:
    return CommandResult(exit_code=code, output="boom", timed_out=timed_out, duration_ms=1)


def _rule(result: CommandResult, evidence: TestEvidence, limit_s: float = 30) -> Ruling:
    ruling = rule(
        result,
        evidence,
        runner=JUnitCheckRunner("junit"),
        limit_s=limit_s,
        canaries=None,
        nonce="n",
        expected=None,
    )
    assert ruling.passed is (ruling.reason is None), ruling
    return ruling


def test_a_runner_that_counts_zero_tests_and_exits_0_fails() -> None:
    none_ran = TestEvidence(tests_ran=0, failed=0, detail="0 ran")
    ruling = _rule(_result(0), none_ran)
    assert ruling == Ruling(False, "check exited 0 but no test ran (0 ran)")
    one_ran = TestEvidence(tests_ran=1, failed=0, detail="1 ran")
    assert _rule(_result(0), one_ran) == Ruling(True)


def test_counts_only_failures_and_exit_codes_fail() -> None:
    failed = TestEvidence(tests_ran=2, failed=1, detail="2 ran, 1 failed")
    assert _rule(_result(0), failed).reason == (
        "check exited 0 but the runner reports failures (2 ran, 1 failed)"
    )
    assert _rule(_result(1), TestEvidence(tests_ran=2, failed=0)).reason == "check exited 1: boom"


def test_a_check_past_its_limit_is_timed_out_whatever_its_evidence() -> None:
    evidence = TestEvidence(tests_ran=1, failed=0, cases=(TestCase("t::a", "passed"),))
    ruling = _rule(_result(None, timed_out=True), evidence, limit_s=7)
    assert ruling == Ruling(False, "check timed out after 7 s")


def test_cases_that_all_skipped_or_none_passed_fail() -> None:
    skipped = TestEvidence(tests_ran=0, cases=(TestCase("t::a", "skipped"),), detail="d")
    assert _rule(_result(0), skipped).reason == "check exited 0 but no test ran (d)"
    mixed = TestEvidence(
        tests_ran=1, cases=(TestCase("t::a", "passed"), TestCase("t::b", "skipped"))
    )
    assert _rule(_result(0), mixed).reason == "tests were skipped: t::b"


def test_no_report_is_a_fail_naming_the_exit() -> None:
    missing = TestEvidence(tests_ran=None, detail="no JUnit report was written")
    assert _rule(_result(0), missing).reason == (
        "check exited 0 but no evidence that tests ran (no JUnit report was written)"
    )
    assert _rule(_result(2), missing).reason == "check exited 2: boom"


def test_a_bare_testsuite_root_is_read_like_surefire_writes_it(tmp_path: Path) -> None:
    report = tmp_path / "TEST-calc.CalcTest.xml"
    report.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<testsuite name="calc.CalcTest" tests="3" failures="1" skipped="1">'
        '<testcase name="adds" classname="calc.CalcTest"/>'
        '<testcase name="subs" classname="calc.CalcTest"><failure message="expected 1">'
        "trace</failure></testcase>"
        '<testcase name="later" classname="calc.CalcTest"><skipped message="not yet"/></testcase>'
        "</testsuite>"
    )
    evidence = read_junit((tmp_path,))
    assert (evidence.tests_ran, evidence.failed, evidence.skipped) == (2, 1, 1)
    assert [(c.id, c.outcome) for c in evidence.cases] == [
        ("calc.CalcTest::adds", "passed"),
        ("calc.CalcTest::subs", "failed"),
        ("calc.CalcTest::later", "skipped"),
    ]
    assert evidence.cases[1].message == "expected 1\ntrace"
    assert evidence.detail == "2 ran, 1 failed, 1 skipped"


def _run(task: str, status: Status, usage: Usage, steps: int = 2, ms: int = 1000) -> TaskResult:
    return TaskResult(task=task, suite="s", status=status, steps=steps, usage=usage, duration_ms=ms)


KNOWN = Usage(input_tokens=100, output_tokens=20, cost_usd=0.5)


def test_means_leave_error_runs_out_and_carry_unknown_tokens_and_incomplete_cost() -> None:
    runs = [
        _run("a", Status.PASS, KNOWN, steps=2, ms=1000),
        _run("a", Status.FAIL, Usage(input_tokens=300, output_tokens=60, cost_usd=1.5), 4, 3000),
        _run("a", Status.ERR, Usage(input_tokens=9000, cost_usd=90.0), steps=50, ms=90_000),
        _run("b", Status.PASS, KNOWN),
        _run("b", Status.FAIL, Usage.unreported("a command agent")),
    ]
    a, b = task_means(runs)
    assert (a.task, a.runs, a.passes, a.errors) == ("a", 3, 1, 1)
    assert (a.mean_steps, a.mean_tokens, a.mean_cost_usd) == (3, 240, 1.0)
    assert a.mean_duration_ms == 2000 and not a.cost_incomplete
    assert (b.task, b.runs, b.passes, b.errors) == ("b", 2, 1, 0)
    assert b.mean_tokens is None and b.cost_incomplete
    assert b.mean_cost_usd == 0.25


def test_a_task_whose_runs_all_errored_has_no_means() -> None:
    (only,) = task_means([_run("a", Status.ERR, KNOWN)])
    assert (only.runs, only.errors, only.passes) == (1, 1, 0)
    assert only.mean_steps is None and only.mean_tokens is None and only.mean_cost_usd is None


def test_totals_with_unknown_usage_say_so_and_keep_the_known_cost() -> None:
    runs = [
        _run("a", Status.PASS, KNOWN),
        _run("b", Status.ERR, Usage(input_tokens=10, unreported_tokens=5000, cost_usd=0.25)),
        _run("c", Status.FAIL, Usage.unreported("a command agent")),
    ]
    summary = summarize(runs)
    assert (summary.attempted, summary.errors, summary.scored, summary.passed) == (3, 1, 2, 1)
    assert summary.scored_rate == 0.5 and summary.attempted_rate == pytest.approx(1 / 3)
    assert summary.tokens is None and not summary.tokens_known
    assert summary.cache_read_share is None
    assert summary.cost_usd == 0.75 and summary.cost_incomplete
    assert summary.unreported_tokens == 5000 and summary.steps == 6
    line = totals_line(summary)
    assert "tok ? (some usage unreported, 5.0k reserved)" in line
    assert "≥ $0.750 (incomplete)" in line


def test_known_totals_count_every_kind_and_the_cache_share() -> None:
    usage = Usage(input_tokens=100, cache_read_tokens=300, cache_write_tokens=100, output_tokens=7)
    summary = summarize([_run("a", Status.PASS, usage), _run("a", Status.ERR, usage)])
    assert summary.tokens == 1014 and summary.cache_read_share == 0.6
    assert summary.scored_rate == 1.0 and summary.attempted_rate == 0.5
    empty = summarize([])
    assert empty.scored_rate is None and empty.attempted_rate is None and empty.tokens == 0


def test_steps_are_known_only_when_every_run_counted_them() -> None:
    counted = [_run("a", Status.PASS, KNOWN), _run("b", Status.FAIL, KNOWN)]
    assert summarize(counted).steps_known
    uncounted = TaskResult(task="c", suite="s", status=Status.FAIL, steps=None, usage=KNOWN)
    summary = summarize([*counted, uncounted])
    assert not summary.steps_known and summary.steps == 4


def test_totals_are_incomplete_only_with_an_interrupted_run() -> None:
    runs = [_run("a", Status.PASS, KNOWN)]
    assert not summarize(runs).totals_incomplete
    summary = summarize([*runs, _run("b", Status.INTERRUPTED, KNOWN)])
    assert summary.totals_incomplete and summary.interrupted == 1 and summary.attempted == 1


def test_pass_at_k_is_given_from_a_second_repeat() -> None:
    first = _run("a", Status.PASS, KNOWN)
    assert summarize([first]).pass_at_k == {}
    second = _run("a", Status.FAIL, KNOWN)
    second.repeat = 2
    assert summarize([first, second]).pass_at_k[1] == 0.5


def test_a_test_reported_twice_keeps_its_worst_outcome() -> None:
    def kept(*outcomes: str) -> str:
        cases = [TestCase("t::a", outcome) for outcome in outcomes]  # type: ignore[arg-type]
        return by_id(cases)["t::a"].outcome

    assert kept("skipped", "failed") == "failed"
    assert kept("failed", "skipped") == "failed"
    assert kept("passed", "skipped") == "skipped"
    assert kept("failed", "error") == "error"
    assert kept("error", "failed", "passed") == "error"
    first, again = TestCase("t::a", "failed", "first"), TestCase("t::a", "failed", "again")
    assert by_id([first, again])["t::a"].message == "first"


def test_links_are_not_read_as_reports(tmp_path: Path) -> None:
    real = tmp_path / "real.xml"
    real.write_text('<testsuite><testcase name="a"/></testsuite>')
    link = tmp_path / "link.xml"
    link.symlink_to(real)
    assert read_junit((link,)).tests_ran is None
    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / "planted.xml").symlink_to(real)
    assert read_junit((folder,)).tests_ran is None
    (tmp_path / "linked-folder").symlink_to(folder)
    assert read_junit((tmp_path / "linked-folder",)).tests_ran is None
    assert read_junit((real,)).tests_ran == 1


def test_a_long_failure_message_is_cut_at_2000_characters(tmp_path: Path) -> None:
    report = tmp_path / "r.xml"
    report.write_text(
        f'<testsuite><testcase name="a"><failure message="{"m" * 1990}">{"t" * 50}'
        "</failure></testcase></testsuite>"
    )
    (case,) = read_junit((report,)).cases
    assert case.message == "m" * 1990 + "\n" + "t" * 9


def test_plan_removes_stale_reports_and_links_without_following_them(tmp_path: Path) -> None:
    workspace, outside = tmp_path / "work", tmp_path / "outside"
    workspace.mkdir()
    outside.mkdir()
    (outside / "keep.xml").write_text("<testsuite/>")
    (workspace / EVIDENCE_DIR).write_text("a file where the folder goes")
    plan = JUnitCheckRunner("junit").plan("pytest --junitxml={junit}", workspace)
    (report,) = plan.evidence_paths
    assert report.parent == workspace / EVIDENCE_DIR and report.parent.is_dir()
    assert plan.command == f"pytest --junitxml={report}"
    assert not report.exists()

    (workspace / "target").mkdir()
    (workspace / "target" / "reports").symlink_to(outside, target_is_directory=True)
    surefire = JUnitCheckRunner("surefire", report_dir="target/reports")
    plan = surefire.plan("mvn test", workspace)
    assert plan.command == "mvn test" and plan.evidence_paths == (workspace / "target/reports",)
    assert not (workspace / "target" / "reports").exists()
    assert (outside / "keep.xml").is_file()
    assert not (workspace / EVIDENCE_DIR).exists()

    (workspace / "target" / "reports").mkdir()
    (workspace / "target" / "reports" / "TEST-old.xml").write_text("<testsuite/>")
    surefire.plan("mvn test", workspace)
    assert not (workspace / "target" / "reports").exists()


def test_reasons_name_five_ids_and_count_the_rest() -> None:
    assert listed(["a", "b", "c", "d", "e"]) == "a, b, c, d, e"
    assert listed(["a", "b", "c", "d", "e", "f", "g"]) == "a, b, c, d, e (+2 more)"
    failing = tuple(TestCase(f"t::{n}", "failed") for n in "abcdef")
    evidence = TestEvidence(tests_ran=6, failed=6, cases=failing)
    assert _rule(_result(1), evidence).reason == (
        "check exited 1: 6 failed: t::a, t::b, t::c, t::d, t::e (+1 more)"
    )


CANARIES = Canaries(files={}, must_fail="t::fail", must_pass="t::pass")
FAILED_WITH_NONCE = TestCase("t::fail", "failed", "assert 1 == 2: nonce-1")


def _with_canaries(
    *cases: TestCase, code: int | None = 1, expected: list[str] | None = None
) -> str | None:
    evidence = TestEvidence(tests_ran=len(cases), cases=cases)
    ruling = rule(
        _result(code),
        evidence,
        runner=JUnitCheckRunner("junit"),
        limit_s=30,
        canaries=CANARIES,
        nonce="nonce-1",
        expected=expected,
    )
    assert ruling.passed is (ruling.reason is None), ruling
    return ruling.reason


@pytest.mark.parametrize(
    ("cases", "problem"),
    [
        ((TestCase("t::pass", "passed"),), "the must-fail canary test is missing from the report"),
        (
            (TestCase("t::fail", "passed"), TestCase("t::pass", "passed")),
            "the must-fail canary test was reported passed",
        ),
        (
            (TestCase("t::fail", "skipped"), TestCase("t::pass", "passed")),
            "the must-fail canary test was reported skipped",
        ),
        (
            (TestCase("t::fail", "failed", "other"), TestCase("t::pass", "passed")),
            "the must-fail canary test failed without its own message",
        ),
        ((FAILED_WITH_NONCE,), "the must-pass canary test is missing from the report"),
        (
            (FAILED_WITH_NONCE, TestCase("t::pass", "skipped")),
            "the must-pass canary test was reported skipped",
        ),
    ],
)
def test_each_canary_problem_is_named(cases: tuple[TestCase, ...], problem: str) -> None:
    assert _with_canaries(*cases, TestCase("t::real", "passed")) == f"{TAMPERED}: {problem}"


def test_canaries_as_planted_leave_the_task_tests_to_decide() -> None:
    passing = TestCase("t::pass", "passed")
    error_canary = TestCase("t::fail", "error", "boom nonce-1")
    assert _with_canaries(FAILED_WITH_NONCE, passing, TestCase("t::real", "passed")) is None
    assert _with_canaries(error_canary, passing, TestCase("t::real", "passed")) is None
    assert _with_canaries(FAILED_WITH_NONCE, passing, TestCase("t::real", "passed"), code=0) == (
        f"{TAMPERED}: the check exited 0 although a test failed"
    )
    assert _with_canaries(FAILED_WITH_NONCE, passing, TestCase("t::real", "failed")) == (
        "check exited 1: 1 failed: t::real"
    )
    assert _with_canaries(FAILED_WITH_NONCE, passing) == "check exited 1 but no test ran ()"


def test_expected_tests_each_present_and_passed() -> None:
    planted = (FAILED_WITH_NONCE, TestCase("t::pass", "passed"))
    cases = (*planted, TestCase("t::a", "passed"), TestCase("t::b", "skipped"))
    assert _with_canaries(*cases, expected=["t::a"]) is None
    assert _with_canaries(*cases, expected=["t::a", "t::b", "t::c"]) == (
        "expected tests did not pass (not passed: t::b (skipped); missing from the report: t::c)"
    )
    assert _with_canaries(*cases, expected=["t::c"]) == (
        "expected tests did not pass (missing from the report: t::c)"
    )
    assert _with_canaries(*cases, expected=["t::b"]) == (
        "expected tests did not pass (not passed: t::b (skipped))"
    )


def test_without_canaries_failures_and_exit_codes_decide() -> None:
    passed, failed = TestCase("t::a", "passed"), TestCase("t::b", "failed")
    both = TestEvidence(tests_ran=2, failed=1, cases=(passed, failed))
    assert _rule(_result(0), both).reason == (
        "check exited 0 but the runner reports failures: t::b"
    )
    assert _rule(_result(1), both).reason == "check exited 1: 1 failed: t::b"
    one = TestEvidence(tests_ran=1, cases=(passed,))
    assert _rule(_result(3), one).reason == "check exited 3: boom"
    assert _rule(_result(0), one) == Ruling(True)
    errored = TestEvidence(tests_ran=1, cases=(TestCase("t::c", "error"),))
    assert _rule(_result(0), errored).reason == (
        "check exited 0 but the runner reports failures: t::c"
    )


def test_the_exit_reason_keeps_200_characters_of_the_last_line() -> None:
    long = CommandResult(exit_code=1, output="first\n" + "x" * 300, timed_out=False, duration_ms=1)
    one = TestEvidence(tests_ran=1, cases=(TestCase("t::a", "passed"),))
    assert _rule(long, one).reason == "check exited 1: " + "x" * 200
    assert _rule(long, TestEvidence(tests_ran=None)).reason == "check exited 1: " + "x" * 200
    assert _rule(long, TestEvidence(tests_ran=1)).reason == "check exited 1: " + "x" * 200


HELD_OUT = HeldOutRun(
    files={},
    must_pass={"x::h1": "tests/more.py::test_one", "x::h2": "tests/more.py::test_two"},
    must_fail={"x::c1": "tests/more.py::test_one_a", "x::c2": "tests/more.py::test_one_b"},
)
AS_PLANTED = (
    TestCase("x::h1", "passed"),
    TestCase("x::h2", "passed"),
    TestCase("x::c1", "failed"),
    TestCase("x::c2", "error"),
)


def _held_out(
    *cases: TestCase,
    code: int | None = 1,
    canaries: Canaries | None = None,
    held_out: HeldOutRun = HELD_OUT,
    expected: list[str] | None = None,
) -> str | None:
    ruling = rule(
        _result(code),
        TestEvidence(tests_ran=len(cases), cases=cases),
        runner=JUnitCheckRunner("junit"),
        limit_s=30,
        canaries=canaries,
        nonce="nonce-1",
        expected=expected,
        held_out=held_out,
    )
    assert ruling.passed is (ruling.reason is None), ruling
    return ruling.reason


def _replaced(test: str, outcome: str) -> tuple[TestCase, ...]:
    return tuple(
        TestCase(case.id, outcome) if case.id == test else case  # type: ignore[arg-type]
        for case in AS_PLANTED
        if not (case.id == test and outcome == "missing")
    )


def test_held_out_tests_passed_and_canaries_failed_leave_the_task_tests_to_decide() -> None:
    real = TestCase("t::real", "passed")
    assert _held_out(*AS_PLANTED, real) is None
    assert _held_out(*AS_PLANTED, real, expected=["t::real"]) is None
    assert _held_out(*AS_PLANTED, TestCase("t::real", "failed")) == (
        "check exited 1: 1 failed: t::real"
    )
    assert _held_out(*AS_PLANTED) == "check exited 1 but no test ran ()"
    both = (FAILED_WITH_NONCE, TestCase("t::pass", "passed"), *AS_PLANTED, real)
    assert _held_out(*both, canaries=CANARIES) is None


@pytest.mark.parametrize("outcome", ["failed", "error", "skipped", "missing"])
def test_a_held_out_test_not_passed_fails_by_the_tasks_name(outcome: str) -> None:
    cases = (*_replaced("x::h2", outcome), TestCase("t::real", "passed"))
    assert _held_out(*cases) == (
        f"held-out tests did not pass (1 of 2): tests/more.py::test_two ({outcome})"
    )


@pytest.mark.parametrize("outcome", ["passed", "skipped", "missing"])
def test_a_canary_not_failed_is_tampering(outcome: str) -> None:
    cases = (*_replaced("x::c2", outcome), TestCase("t::real", "passed"))
    assert _held_out(*cases) == (
        f"{TAMPERED}: canaries shaped like the held-out tests did not fail: "
        f"tests/more.py::test_one_b ({outcome})"
    )


def test_held_out_tests_decide_before_their_canaries() -> None:
    flipped = (*(TestCase(case.id, "passed") for case in AS_PLANTED), TestCase("t::real", "passed"))
    unsolved = (*(TestCase(case.id, "failed") for case in AS_PLANTED), TestCase("t::r", "passed"))
    assert (_held_out(*flipped) or "").startswith(f"{TAMPERED}: canaries shaped like")
    assert (_held_out(*unsolved) or "").startswith("held-out tests did not pass (2 of 2)")


def test_with_failing_canaries_the_check_must_not_exit_0() -> None:
    real = TestCase("t::real", "passed")
    assert _held_out(*AS_PLANTED, real, code=0) == (
        f"{TAMPERED}: the check exited 0 although a test failed"
    )
    without_canaries = HeldOutRun(files={}, must_pass=dict(HELD_OUT.must_pass), must_fail={})
    assert _held_out(*AS_PLANTED[:2], real, code=0, held_out=without_canaries) is None
    assert _held_out(*AS_PLANTED[:2], real, code=1, held_out=without_canaries) == (
        "check exited 1: boom"
    )


def test_passes_the_lint_marked_are_counted_and_shown_apart() -> None:
    marked = _run("a", Status.PASS, KNOWN).model_copy(update={"suspicious": ["x"]})
    clean = _run("b", Status.PASS, KNOWN)
    failed = _run("c", Status.FAIL, KNOWN).model_copy(update={"suspicious": ["y"]})
    summary = summarize([marked, clean, failed])
    assert (summary.passed, summary.suspicious_passes) == (2, 1)
    assert [r.shown_status for r in (marked, clean, failed)] == ["PASS?", "PASS", "FAIL"]
    assert rates_line(summary).startswith(
        "2/3 scored runs passed (67%) · 2/3 of all attempted runs (67%) · "
        "1 of the passes PASS? (read the change: see suspicious)"
    )
    assert "PASS?" not in rates_line(summarize([clean, failed]))
