"""JUnit XML: one test case per task run, so CI systems show an eval like a test suite."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TextIO

from garuda_evals.api import (
    Report,
    ReportFormatter,
    Status,
    TaskResult,
    format_cost,
    format_tokens,
)
from garuda_evals_reports.text import agent_words, run_name, xml_safe

JUNIT_FILE = "junit.xml"
INTERRUPTED = "INT"  # a run stopped by Ctrl-C: neither passed nor failed
OUTPUT_CHARS = 20_000


def _seconds(ms: int | float) -> str:
    return f"{ms / 1000:.3f}"


def _details(result: TaskResult) -> str:
    """The body of a failure or error: reason, stop reason, the check's output."""
    lines = [result.failure or result.status.value]
    if result.stop_reason:
        lines.append(f"agent stop: {result.stop_reason}")
    lines += [f"suspicious: {line}" for line in result.suspicious]
    lines += [f"notice: {line}" for line in result.notices]
    if result.check is not None:
        lines.append(f"check: {result.check.command} (exit {result.check.exit_code})")
        if result.check.output_tail:
            lines += ["", result.check.output_tail[-OUTPUT_CHARS:]]
    return "\n".join(lines)


def _tokens(result: TaskResult) -> str:
    """The exact count, or ``?`` (with the reservation of unreported calls): never 0."""
    usage = result.usage
    if usage.tokens_known:
        return str(usage.total_tokens)
    reserved = f" ({format_tokens(usage.unreported_tokens)} reserved)"
    return "?" + (reserved if usage.unreported_tokens else "")


def _testcase(result: TaskResult, repeats: bool) -> ET.Element:
    case = ET.Element(
        "testcase",
        {
            "classname": xml_safe(result.suite),
            "name": xml_safe(run_name(result, repeats).split("/", 1)[1]),
            "time": _seconds(result.duration_ms),
        },
    )
    if result.status.value == INTERRUPTED:
        skipped = ET.SubElement(
            case, "skipped", {"message": "interrupted before it finished", "type": INTERRUPTED}
        )
        skipped.text = xml_safe(_details(result))
    elif result.status is not Status.PASS:
        kind = "failure" if result.status is Status.FAIL else "error"
        outcome = ET.SubElement(
            case,
            kind,
            {
                "message": xml_safe(result.failure or result.status.value),
                "type": result.status.value,
            },
        )
        outcome.text = xml_safe(_details(result))
    steps = f"steps: {'?' if result.steps is None else result.steps}, tokens: {_tokens(result)}"
    cost = f"cost: {format_cost(result.usage.cost_usd, result.usage.cost_incomplete)}"
    out = ET.SubElement(case, "system-out")
    out.text = xml_safe(
        "\n".join(
            [steps, cost, *([f"transcript: {result.transcript}"] if result.transcript else [])]
        )
    )
    return case


def junit_xml(report: Report) -> str:
    """The report as JUnit XML: a ``testsuite`` per suite, a ``testcase`` per run."""
    repeats = report.settings.repeat > 1
    by_suite: dict[str, list[TaskResult]] = {}
    for result in report.results:
        by_suite.setdefault(result.suite, []).append(result)
    root = ET.Element(
        "testsuites",
        {
            "name": xml_safe(f"garuda eval {report.run_id}"),
            "tests": str(len(report.results)),
            "failures": str(sum(r.status is Status.FAIL for r in report.results)),
            "errors": str(sum(r.status is Status.ERR for r in report.results)),
            "time": _seconds(report.wall_ms),
        },
    )
    for suite, results in by_suite.items():
        element = ET.SubElement(
            root,
            "testsuite",
            {
                "name": xml_safe(suite),
                "tests": str(len(results)),
                "failures": str(sum(r.status is Status.FAIL for r in results)),
                "errors": str(sum(r.status is Status.ERR for r in results)),
                "skipped": str(sum(r.status.value == INTERRUPTED for r in results)),
                "time": _seconds(sum(r.duration_ms for r in results)),
                "timestamp": report.started_at,
            },
        )
        properties = ET.SubElement(element, "properties")
        for name, value in (
            ("run_id", report.run_id),
            ("agent", agent_words(report.agent)),
            ("executor", report.executor.name),
            ("interrupted", str(report.interrupted).lower()),
        ):
            ET.SubElement(properties, "property", {"name": name, "value": xml_safe(value)})
        element.extend(_testcase(result, repeats) for result in results)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


class JUnitFormatter(ReportFormatter):
    """``--report-format junit``: XML on stdout, and saved as junit.xml in the run folder."""

    name = "junit"

    def render(self, report: Report) -> str:
        """The JUnit XML document."""
        return junit_xml(report)

    def publish(self, report: Report, run_dir: Path, *, stdout: TextIO, stderr: TextIO) -> None:
        """Print the XML and save it beside report.json."""
        text = self.render(report)
        path = run_dir / JUNIT_FILE
        path.write_text(text, encoding="utf-8")
        stdout.write(text)
        print(f"junit: {path}", file=stderr)
