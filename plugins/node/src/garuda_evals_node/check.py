"""The ``node-test`` check runner: JUnit XML from ``node --test``, read with node's quirks.

When a test file ends before its tests report (``process.exit(0)`` at import, or in a
test), ``node --test`` lists the file itself as one passing test case named by its path.
Counted as a test, that would let an early exit pass; here it counts as a failure.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from garuda_evals.checks.base import CheckPlan, TestEvidence
from garuda_evals.checks.junit import JUnitCheckRunner
from garuda_evals.executors.base import CommandResult

NAME = "node-test"
SCRIPT = re.compile(r"\.(?:c|m)?[jt]sx?$")
COMMAND = (
    "node --test --test-reporter=junit --test-reporter-destination={junit} "
    "--test-reporter=spec --test-reporter-destination=stdout test/"
)
"""The check of the node suites: node's runner called directly, JUnit for evidence."""


def _file_level_cases(paths: tuple[Path, ...], workspace: Path) -> list[str]:
    """Names of test cases that stand for a whole test file rather than a test."""
    found: list[str] = []
    for path in paths:
        if not path.is_file():
            continue
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError:
            continue
        for case in root.iter("testcase"):
            name = case.get("name", "")
            if SCRIPT.search(name) and (name.startswith("/") or (workspace / name).is_file()):
                found.append(name)
    return found


class NodeTestCheckRunner(JUnitCheckRunner):
    """``{junit}`` is a fresh report path; a test file that reported no test is a failure."""

    def __init__(self) -> None:
        super().__init__(NAME)

    def evidence(self, plan: CheckPlan, workspace: Path, result: CommandResult) -> TestEvidence:
        """The JUnit counts, minus file-level cases, which count as failures instead."""
        base = super().evidence(plan, workspace, result)
        if base.tests_ran is None:
            return base
        files = _file_level_cases(plan.evidence_paths, workspace)
        if not files:
            return base
        shown = ", ".join(Path(name).name for name in files[:3])
        return TestEvidence(
            tests_ran=base.tests_ran - len(files),
            failed=base.failed + len(files),
            detail=f"{base.detail}; test file(s) ended before reporting any test: {shown}",
        )
