"""The HTML report of real python-suite runs counts the task's own tests: the judge's planted
canaries (one fails on every run) and the held-out tests with theirs are named apart, and a FAIL's reason and its evidence
count the same failures."""

from __future__ import annotations

import json
import re
from pathlib import Path

from browser import Browser

from garuda_evals.testing import import_or_skip, run_garuda

python_suite = import_or_skip("garuda_evals_python.suite", "pytest")
TASK = "shared-mutable-default"
CANARIES = "canaries (not counted): must-fail failed, must-pass passed"
HELD_OUT = "held out (not counted): {passed} of 3 passed, 6 of 6 canaries failed"


def _page(tmp_path: Path, agent: str) -> tuple[Path, dict[str, object]]:
    done = run_garuda(
        "eval", "-s", "python", "-t", TASK, "--agent", agent, "--executor", "host",
        "--report-format", "html", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode in (0, 2), done.stdout + done.stderr
    (report,) = tmp_path.glob(".garuda/evals/*/report.json")
    result = json.loads(report.read_text(encoding="utf-8"))["results"][0]
    return report.parent / "report.html", result


def _check(browser: Browser, page: Path) -> tuple[str, str]:
    browser.load(page)
    summary, evidence = browser.evaluate(
        "[document.querySelector('#run-1 .check > summary').textContent,"
        " document.querySelector('#run-1 .check .meta').textContent]"
    )
    return summary, evidence


def _own_tests() -> int:
    """The task's own tests: the ids its reference solution makes pass (pinned)."""
    tasks = {task.id: task for task in python_suite.load_python_suite().tasks()}
    own = len(tasks[TASK].expected_tests or [])
    assert own > 1
    return own


def test_a_pass_shows_no_failure_and_the_canaries_apart(tmp_path: Path, browser: Browser) -> None:
    own = _own_tests()
    page, result = _page(tmp_path, "oracle")
    assert result["status"] == "PASS"
    assert (result["check"]["testsRan"], result["check"]["testsFailed"]) == (own, 0)
    summary, evidence = _check(browser, page)
    assert summary.endswith(f"· {own} tests, 0 failed"), summary
    held_out = HELD_OUT.format(passed=3)
    assert evidence == f"evidence: {own} ran, 0 failed, 0 skipped; {CANARIES}; {held_out}"


def test_a_fail_counts_the_failures_its_reason_counts(tmp_path: Path, browser: Browser) -> None:
    page, result = _page(tmp_path, "noop")
    assert result["status"] == "FAIL"
    reason = re.match(r"check exited 1: (\d+) failed: ", result["failure"])
    assert reason is not None, result["failure"]
    failed = int(reason.group(1))
    own = _own_tests()
    assert (result["check"]["testsRan"], result["check"]["testsFailed"]) == (own, failed)
    summary, evidence = _check(browser, page)
    assert summary.endswith(f"· {own} tests, {failed} failed"), summary
    held_out = HELD_OUT.format(passed=0)
    assert evidence == f"evidence: {own} ran, {failed} failed, 0 skipped; {CANARIES}; {held_out}"
