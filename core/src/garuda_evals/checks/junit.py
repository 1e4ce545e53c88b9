"""Evidence from JUnit XML, which pytest, node --test and Surefire all write."""

from __future__ import annotations

import secrets
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

from garuda_evals.checks.base import CheckPlan, CheckRunner, TestEvidence
from garuda_evals.executors.base import CommandResult

EVIDENCE_DIR = ".garuda-check"


def _count(root: ET.Element) -> tuple[int, int, int]:
    cases = failed = skipped = 0
    for case in root.iter("testcase"):
        cases += 1
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            skipped += 1
    return cases, failed, skipped


def read_junit(paths: tuple[Path, ...]) -> TestEvidence:
    """Count test cases in JUnit XML files (a path may be a folder of ``*.xml``)."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(path.glob("*.xml")))
        elif path.is_file():
            files.append(path)
    if not files:
        return TestEvidence(tests_ran=None, detail="no JUnit report was written")
    cases = failed = skipped = 0
    for file in files:
        try:
            root = ET.parse(file).getroot()
        except ET.ParseError as error:
            return TestEvidence(
                tests_ran=None, detail=f"unreadable JUnit report {file.name}: {error}"
            )
        c, f, s = _count(root)
        cases, failed, skipped = cases + c, failed + f, skipped + s
    ran = cases - skipped
    detail = f"{ran} ran, {failed} failed, {skipped} skipped"
    return TestEvidence(tests_ran=ran, failed=failed, detail=detail)


class JUnitCheckRunner(CheckRunner):
    """A runner that writes JUnit XML.

    With ``report_dir`` None, ``{junit}`` in the command becomes a fresh, randomly named
    file under ``.garuda-check/``. With ``report_dir`` set (Surefire's
    ``target/surefire-reports``), that folder is emptied before the check and read after it.
    """

    def __init__(self, name: str, report_dir: str | None = None) -> None:
        self.name = name
        self.report_dir = report_dir

    def plan(self, command: str, workspace: Path) -> CheckPlan:
        """Remove stale reports and fill ``{junit}``."""
        shutil.rmtree(workspace / EVIDENCE_DIR, ignore_errors=True)
        if self.report_dir is not None:
            folder = workspace / self.report_dir
            shutil.rmtree(folder, ignore_errors=True)
            return CheckPlan(command=command, evidence_paths=(folder,))
        report = workspace / EVIDENCE_DIR / f"{secrets.token_hex(8)}.xml"
        report.parent.mkdir()
        return CheckPlan(command=command.replace("{junit}", str(report)), evidence_paths=(report,))

    def evidence(self, plan: CheckPlan, workspace: Path, result: CommandResult) -> TestEvidence:
        """Count the test cases of the reports written during the check."""
        return read_junit(plan.evidence_paths)
