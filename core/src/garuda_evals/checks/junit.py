"""Evidence from JUnit XML, which pytest, node --test and Surefire all write."""

from __future__ import annotations

import secrets
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

from garuda_evals.checks.base import CheckPlan, CheckRunner, Outcome, TestCase, TestEvidence
from garuda_evals.executors.base import CommandResult

EVIDENCE_DIR = ".garuda-check"
MESSAGE_CHARS = 2000
OUTCOME_TAGS: tuple[tuple[str, Outcome], ...] = (
    ("failure", "failed"),
    ("error", "error"),
    ("skipped", "skipped"),
)


def case_id(case: ET.Element) -> str:
    """``classname::name``, or ``name`` alone when the runner gives no class name."""
    name, classname = case.get("name", ""), case.get("classname", "")
    return f"{classname}::{name}" if classname else name


def read_case(case: ET.Element) -> TestCase:
    """One ``<testcase>``: its id, its outcome, and the message of a failure or skip."""
    for tag, outcome in OUTCOME_TAGS:
        found = case.find(tag)
        if found is not None:
            message = f"{found.get('message', '')}\n{found.text or ''}".strip()
            return TestCase(case_id(case), outcome, message[:MESSAGE_CHARS])
    return TestCase(case_id(case), "passed")


def summarize(cases: list[TestCase]) -> TestEvidence:
    """Counts and a one-line detail for ``cases``."""
    failed = sum(1 for case in cases if case.outcome in ("failed", "error"))
    skipped = sum(1 for case in cases if case.outcome == "skipped")
    ran = len(cases) - skipped
    detail = f"{ran} ran, {failed} failed, {skipped} skipped"
    return TestEvidence(
        tests_ran=ran, failed=failed, detail=detail, cases=tuple(cases), skipped=skipped
    )


def report_files(paths: tuple[Path, ...]) -> list[Path]:
    """The JUnit files among ``paths`` (a path may be a folder of ``*.xml``)."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir() and not path.is_symlink():
            files.extend(
                p for p in sorted(path.glob("*.xml")) if p.is_file() and not p.is_symlink()
            )
        elif path.is_file() and not path.is_symlink():
            files.append(path)
    return files


def read_junit(paths: tuple[Path, ...]) -> TestEvidence:
    """Every test case in the JUnit XML files at ``paths``."""
    files = report_files(paths)
    if not files:
        return TestEvidence(tests_ran=None, detail="no JUnit report was written")
    cases: list[TestCase] = []
    for file in files:
        try:
            root = ET.parse(file).getroot()
        except (ET.ParseError, OSError, UnicodeDecodeError) as error:
            return TestEvidence(
                tests_ran=None, detail=f"unreadable JUnit report {file.name}: {error}"
            )
        cases.extend(read_case(case) for case in root.iter("testcase"))
    return summarize(cases)


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
        _remove(workspace / EVIDENCE_DIR)
        if self.report_dir is not None:
            folder = workspace / self.report_dir
            _remove(folder)
            return CheckPlan(command=command, evidence_paths=(folder,))
        report = workspace / EVIDENCE_DIR / f"{secrets.token_hex(8)}.xml"
        report.parent.mkdir()
        return CheckPlan(command=command.replace("{junit}", str(report)), evidence_paths=(report,))

    def evidence(self, plan: CheckPlan, workspace: Path, result: CommandResult) -> TestEvidence:
        """Every test case of the reports written during the check."""
        return read_junit(plan.evidence_paths)


def _remove(path: Path) -> None:
    """Remove a file, a link or a folder tree at ``path`` (a link is removed, not followed)."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)
