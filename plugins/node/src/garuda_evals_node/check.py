"""The ``node-test`` check runner: JUnit XML from ``node --test``, read with node's quirks.

``node --test`` lists a file that reported no test as one passing test case named by its
path (absolute on node 20, as given on the command line on node 22+). That happens for a helper module in ``test/`` (no tests in it: harmless) and for a
test file that ended early, for example by ``process.exit(0)`` at import. Counted as a
test, an early exit would pass; here a file-level case of a file that uses ``node:test``
is a failure, and one of a plain helper is not counted at all.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from garuda_evals.checks.base import CheckPlan, TestEvidence
from garuda_evals.checks.junit import JUnitCheckRunner
from garuda_evals.executors.base import CommandResult

NAME = "node-test"
SCRIPT = re.compile(r"\.(?:c|m)?[jt]sx?$")
USES_NODE_TEST = re.compile(r"""['"]node:test['"]""")


@dataclass
class FileLevelCases:
    """File-level test cases: test files that ended early, and plain helper modules."""

    ended_early: list[str] = field(default_factory=list)
    helpers: list[str] = field(default_factory=list)


def _script(name: str, workspace: Path) -> Path | None:
    if not SCRIPT.search(name):
        return None
    path = Path(name) if name.startswith("/") else workspace / name
    return path if path.is_file() else None


def file_level_cases(paths: tuple[Path, ...], workspace: Path) -> FileLevelCases:
    """Sort the cases that stand for a whole file into early exits and helpers."""
    found = FileLevelCases()
    for report in paths:
        if not report.is_file():
            continue
        try:
            root = ET.parse(report).getroot()
        except ET.ParseError:
            continue
        for case in root.iter("testcase"):
            name = case.get("name", "")
            script = _script(name, workspace)
            if script is None:
                continue
            text = script.read_text(encoding="utf-8", errors="replace")
            (found.ended_early if USES_NODE_TEST.search(text) else found.helpers).append(name)
    return found


class NodeTestCheckRunner(JUnitCheckRunner):
    """``{junit}`` is a fresh report path; a test file that reported no test is a failure."""

    def __init__(self) -> None:
        super().__init__(NAME)

    def evidence(self, plan: CheckPlan, workspace: Path, result: CommandResult) -> TestEvidence:
        """The JUnit counts without file-level cases; early exits count as failures."""
        base = super().evidence(plan, workspace, result)
        if base.tests_ran is None:
            return base
        cases = file_level_cases(plan.evidence_paths, workspace)
        if not cases.ended_early and not cases.helpers:
            return base
        ran = base.tests_ran - len(cases.ended_early) - len(cases.helpers)
        detail = f"{ran} ran, {base.failed} failed"
        if cases.ended_early:
            shown = ", ".join(Path(name).name for name in cases.ended_early[:3])
            detail += f"; test file(s) ended before reporting any test: {shown}"
        return TestEvidence(
            tests_ran=ran, failed=base.failed + len(cases.ended_early), detail=detail
        )
