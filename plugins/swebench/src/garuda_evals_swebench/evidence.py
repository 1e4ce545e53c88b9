"""The run's JUnit report read as SWE-bench grades it: only the instance's listed tests.

SWE-bench grades a run by ``FAIL_TO_PASS`` and ``PASS_TO_PASS`` alone: the other tests of
the files it runs may fail (broken before and after the fix, or needing what the
environment lacks) and count for nothing. Each reported test is mapped to the listed ids by
the instance's id style (``ids``); the evidence holds one case per listed id the report
names, the others are counted in the detail. An expected failure (pytest's ``xfail``,
unittest's ``expectedFailure``) counts as passed, as SWE-bench counts it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Collection
from pathlib import Path

from garuda_evals.api import MESSAGE_CHARS, TestCase, TestEvidence, report_files
from garuda_evals_swebench.ids import IdStyle

OUTCOMES = (("failure", "failed"), ("error", "error"), ("skipped", "skipped"))


def _outcome(case: ET.Element) -> tuple[str, str]:
    for tag, outcome in OUTCOMES:
        found = case.find(tag)
        if found is None:
            continue
        if tag == "skipped" and found.get("type") == "pytest.xfail":
            return "passed", ""
        message = f"{found.get('message', '')}\n{found.text or ''}".strip()
        return outcome, message[:MESSAGE_CHARS]
    return "passed", ""


def graded_evidence(
    paths: tuple[Path, ...], style: IdStyle, graded: Collection[str] | None
) -> TestEvidence:
    """The listed tests' cases from the JUnit files at ``paths`` (``graded`` None: every
    reported test, under its key)."""
    files = report_files(paths)
    if not files:
        return TestEvidence(tests_ran=None, detail="no JUnit report was written")
    wanted: dict[str, list[str]] = {}
    for test_id in graded or ():
        wanted.setdefault(style.expected_key(test_id), []).append(test_id)
    cases: list[TestCase] = []
    others = other_failures = 0
    for file in files:
        try:
            root = ET.parse(file).getroot()
        except (ET.ParseError, OSError, UnicodeDecodeError) as error:
            return TestEvidence(
                tests_ran=None, detail=f"unreadable JUnit report {file.name}: {error}"
            )
        for case in root.iter("testcase"):
            outcome, message = _outcome(case)
            keys = style.reported_keys(
                case.get("classname", ""), case.get("name", ""), case.get("doc", "")
            )
            if graded is None:
                cases.extend(TestCase(key, outcome, message) for key in list(keys)[:1])  # type: ignore[arg-type]
                continue
            ids = {test_id for key in keys for test_id in wanted.get(key, ())}
            cases.extend(TestCase(test_id, outcome, message) for test_id in sorted(ids))  # type: ignore[arg-type]
            if not ids:
                others += 1
                other_failures += outcome in ("failed", "error")
    failed = sum(1 for case in cases if case.outcome in ("failed", "error"))
    skipped = sum(1 for case in cases if case.outcome == "skipped")
    ran = len(cases) - skipped
    detail = f"{ran} listed tests ran, {failed} failed, {skipped} skipped"
    if others:
        detail += f"; {others} other tests not graded ({other_failures} of them failed)"
    return TestEvidence(
        tests_ran=ran, failed=failed, detail=detail, cases=tuple(cases), skipped=skipped
    )
