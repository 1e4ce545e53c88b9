"""Per-test results from a runner's report (JUnit XML or Jest's JSON), and the Jest check runner."""

from __future__ import annotations

import json
import secrets
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

from garuda_evals.checks.base import CheckPlan, CheckRunner, TestEvidence
from garuda_evals.checks.junit import EVIDENCE_DIR
from garuda_evals.executors.base import CommandResult

PASSED = "passed"
FAILED = "failed"
SKIPPED = "skipped"


def _junit_results(root: ET.Element) -> dict[str, str]:
    results: dict[str, str] = {}
    for case in root.iter("testcase"):
        name = "::".join(p for p in (case.get("classname", ""), case.get("name", "")) if p)
        if case.find("failure") is not None or case.find("error") is not None:
            results[name] = FAILED
        elif case.find("skipped") is not None:
            results[name] = SKIPPED
        else:
            results.setdefault(name, PASSED)
    return results


def _jest_results(data: dict) -> dict[str, str]:
    results: dict[str, str] = {}
    for suite in data.get("testResults", []):
        for case in suite.get("assertionResults", []):
            status = case.get("status")
            state = PASSED if status == "passed" else FAILED if status == "failed" else SKIPPED
            results[case.get("fullName") or case.get("title", "?")] = state
        if suite.get("status") == "failed" and not suite.get("assertionResults"):
            results[Path(suite.get("name", "?")).name] = FAILED
    return results


def read_results(path: Path) -> dict[str, str] | None:
    """``test name -> passed|failed|skipped`` from a report file; None when there is none."""
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        if text.lstrip().startswith("{"):
            return _jest_results(json.loads(text))
        return _junit_results(ET.fromstring(text))
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
        shutil.rmtree(workspace / EVIDENCE_DIR, ignore_errors=True)
        report = workspace / EVIDENCE_DIR / f"{secrets.token_hex(8)}.json"
        report.parent.mkdir()
        return CheckPlan(command=command.replace("{junit}", str(report)), evidence_paths=(report,))

    def evidence(self, plan: CheckPlan, workspace: Path, result: CommandResult) -> TestEvidence:
        """Count Jest's assertion results: ran = passed + failed."""
        results = read_results(plan.evidence_paths[0])
        if results is None:
            return TestEvidence(tests_ran=None, detail="no Jest JSON report was written")
        failed = sum(1 for state in results.values() if state == FAILED)
        ran = sum(1 for state in results.values() if state != SKIPPED)
        skipped = len(results) - ran
        return TestEvidence(
            tests_ran=ran, failed=failed, detail=f"{ran} ran, {failed} failed, {skipped} skipped"
        )
