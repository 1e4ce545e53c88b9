"""Per-test results from a runner's report (JUnit XML or Jest's JSON), and the Jest check runner."""

from __future__ import annotations

import json
import re
import secrets
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

from garuda_evals.api import (
    EVIDENCE_DIR,
    MESSAGE_CHARS,
    CheckPlan,
    CheckRunner,
    CommandResult,
    TestCase,
    TestEvidence,
    parse_go_test_json,
    read_case,
    summarize,
)

PASSED = "passed"
FAILED = "failed"
SKIPPED = "skipped"


STATES = {"passed": PASSED, "failed": FAILED, "error": FAILED, "skipped": SKIPPED}
RANK = {PASSED: 0, SKIPPED: 1, FAILED: 2}


def _results(cases: list[TestCase]) -> dict[str, str]:
    """``id -> state``; an id reported twice keeps a failure, then a skip, over a pass."""
    results: dict[str, str] = {}
    for case in cases:
        state = STATES[case.outcome]
        if RANK[state] >= RANK[results.get(case.id, PASSED)]:
            results[case.id] = state
    return results


def jest_cases(data: dict) -> list[TestCase]:
    """Jest's ``--json`` report as test cases: ids are the tests' full names.

    A test file that failed before any test ran (a syntax error) is one errored case named
    after the file.
    """
    cases: list[TestCase] = []
    for suite in data.get("testResults", []):
        for case in suite.get("assertionResults", []):
            status = case.get("status")
            outcome = (
                "passed" if status == "passed" else "failed" if status == "failed" else ("skipped")
            )
            message = "\n".join(str(m) for m in case.get("failureMessages") or [])
            name = case.get("fullName") or case.get("title", "?")
            cases.append(TestCase(name, outcome, message[:MESSAGE_CHARS]))
        if suite.get("status") == "failed" and not suite.get("assertionResults"):
            message = str(suite.get("message", ""))[:MESSAGE_CHARS]
            cases.append(TestCase(Path(suite.get("name", "?")).name, "error", message))
    return cases


JS_FILE = re.compile(r"\.[cm]?[jt]sx?$")


def genuine(kind: str | None, case: ET.Element) -> bool:
    """Whether a JUnit ``<testcase>`` stands for a test the runner ran (a failure always does).

    ``node --test`` and borp report a test file that defined no test as one passing test
    named after the file. tap reads each test file's standard output as TAP, so a printed
    ``ok`` line becomes a passing case: only tap's subtests (``t.test``, which carry a
    ``time``) count as passes; the assertions inside a subtest are left to it.
    """
    failed = any(case.find(tag) is not None for tag in ("failure", "error"))
    if kind in ("node", "borp"):
        named_like_file = case.get("classname") == "test" and JS_FILE.search(case.get("name", ""))
        return failed or not named_like_file
    if kind == "tap":
        if case.get("time") is not None:
            return True
        return failed and " > " not in case.get("classname", "")
    return True


def junit_cases(kind: str | None, files: list[Path]) -> list[TestCase] | str:
    """The genuine cases of JUnit files, or the reason one could not be read."""
    cases: list[TestCase] = []
    for file in files:
        try:
            root = ET.parse(file).getroot()
        except (ET.ParseError, OSError, UnicodeDecodeError) as error:
            return f"unreadable JUnit report {file.name}: {error}"
        cases.extend(read_case(case) for case in root.iter("testcase") if genuine(kind, case))
    return cases


def read_results(path: Path, kind: str | None = None) -> dict[str, str] | None:
    """``test name -> passed|failed|skipped`` from a report file (or a folder of JUnit XML
    files, as Surefire writes); None when there is none. ``kind`` (the runner) drops what
    it reports that is not a test (see ``genuine``)."""
    if path.is_dir():
        merged: dict[str, str] = {}
        for part in sorted(path.glob("*.xml")):
            merged.update(read_results(part, kind) or {})
        return merged or None
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8", errors="replace")
    if '"Action"' in text.split("\n", 1)[0]:
        evidence = parse_go_test_json(text)
        return _results(evidence.cases) if evidence.tests_ran is not None else None
    try:
        if text.lstrip().startswith("{"):
            return _results(jest_cases(json.loads(text)))
        root = ET.fromstring(text)
        return _results([read_case(case) for case in root.iter("testcase") if genuine(kind, case)])
    except (ET.ParseError, json.JSONDecodeError, AttributeError):
        return None


def fail_to_pass(parent: dict[str, str] | None, commit: dict[str, str] | None) -> list[str]:
    """Tests that pass at the commit and did not pass at the parent (failed or absent)."""
    if commit is None:
        return []
    before = parent or {}
    return sorted(
        name for name, state in commit.items() if state == PASSED and before.get(name) != PASSED
    )


class JestJsonCheckRunner(CheckRunner):
    """Jest writes no JUnit XML without a plugin: ``{junit}`` becomes a fresh ``--json`` report."""

    name = "repo-jest-json"

    def plan(self, command: str, workspace: Path) -> CheckPlan:
        """Remove stale reports and fill ``{junit}`` with a random path under .garuda-check/."""
        evidence = workspace / EVIDENCE_DIR
        if evidence.is_symlink() or evidence.is_file():
            evidence.unlink()
        shutil.rmtree(evidence, ignore_errors=True)
        report = workspace / EVIDENCE_DIR / f"{secrets.token_hex(8)}.json"
        report.parent.mkdir()
        return CheckPlan(command=command.replace("{junit}", str(report)), evidence_paths=(report,))

    def evidence(self, plan: CheckPlan, workspace: Path, result: CommandResult) -> TestEvidence:
        """Every test of Jest's report: ran = passed + failed."""
        report = plan.evidence_paths[0]
        if report.is_symlink() or not report.is_file():
            return TestEvidence(tests_ran=None, detail="no Jest JSON report was written")
        try:
            data = json.loads(report.read_text(encoding="utf-8", errors="replace"))
            cases = jest_cases(data)
        except (json.JSONDecodeError, AttributeError, TypeError) as error:
            return TestEvidence(tests_ran=None, detail=f"unreadable Jest report: {error}")
        return summarize(cases)
