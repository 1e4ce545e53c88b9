"""JUnit XML: valid against the schema Jenkins reads, one test case per run, reasons kept."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import xmlschema

from garuda_evals.models.result import Status
from garuda_evals.report.compare import load_report
from garuda_evals.testing import run_garuda
from garuda_evals_reports.junit import junit_xml

SCHEMA = xmlschema.XMLSchema(Path(__file__).parent / "schema" / "junit-10.xsd")
MINI = Path(__file__).resolve().parents[3] / "core" / "tests" / "suite_data" / "mini"


def test_junit_of_a_hostile_run_is_valid_and_has_one_case_per_run(sample_run: Path) -> None:
    report = load_report(sample_run)
    text = junit_xml(report)
    SCHEMA.validate(text)
    root = ET.fromstring(text)
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == len(report.results) == 15
    by_name = {case.get("name"): case for case in cases}
    failure = by_name["alpha #2"].find("failure")
    assert failure is not None
    expected = report.results[4].failure or ""
    message = failure.get("message") or ""
    assert message.startswith("2 of 5 tests failed: test_add | expected 3, got -1")
    assert "<script>" in message  # kept as text, escaped by the XML writer
    assert "\x00" not in message and "\x1b" not in message and "red" in message
    assert len(message) >= len(expected) - 20
    error = by_name["epsilon #1"].find("error")
    assert error is not None and error.get("type") == "ERR"
    assert by_name["beta #1"].find("failure") is None and by_name["beta #1"].find("error") is None
    assert root.get("tests") == "15" and root.get("failures") == "4" and root.get("errors") == "3"
    properties = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert properties["agent"] == "garuda (model=fake/model)"


def test_the_schema_rejects_what_ci_would_reject() -> None:
    """The validator is real: a test case without a name is refused."""
    bad = '<testsuites><testsuite name="s" tests="1" failures="0" errors="0"><testcase/></testsuite></testsuites>'
    with pytest.raises(xmlschema.XMLSchemaValidationError):
        SCHEMA.validate(bad)


def test_garuda_eval_report_format_junit_prints_and_saves_it(tmp_path: Path) -> None:
    done = run_garuda(
        "eval",
        "--agent",
        "noop",
        "-s",
        str(MINI),
        "--executor",
        "host",
        "--report-format",
        "junit",
        cwd=tmp_path,
    )
    assert done.returncode == 2, done.stderr
    saved = list(tmp_path.glob(".garuda/evals/*/junit.xml"))
    assert len(saved) == 1
    assert saved[0].read_text(encoding="utf-8") == done.stdout
    SCHEMA.validate(done.stdout)
    cases = ET.fromstring(done.stdout).findall("./testsuite/testcase")
    assert cases and all(case.find("failure") is not None for case in cases)


def test_an_interrupted_run_is_a_skipped_case(sample_run: Path) -> None:
    report = load_report(sample_run)
    report.results[0].status = Status("INT")
    text = junit_xml(report)
    SCHEMA.validate(text)
    first = ET.fromstring(text).findall("./testsuite/testcase")[0]
    skipped = first.find("skipped")
    assert skipped is not None and skipped.get("type") == "INT"
    assert ET.fromstring(text).find("testsuite").get("skipped") == "1"
