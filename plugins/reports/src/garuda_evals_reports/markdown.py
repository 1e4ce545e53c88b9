"""Markdown for CI: a summary table, appended to ``$GITHUB_STEP_SUMMARY`` when that is set."""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import TextIO

from garuda_evals.api import (
    Report,
    ReportFormatter,
    TaskResult,
    format_cost,
    format_seconds,
    format_usage_tokens,
    rates_line,
    totals_line,
)
from garuda_evals_reports.text import run_name

STEP_SUMMARY = "GITHUB_STEP_SUMMARY"
REASON_CHARS = 200


def cell(text: str) -> str:
    """Text safe inside a table cell: one line, no raw HTML, pipes and backticks escaped."""
    flat = " ".join(text.split())
    return (
        html.escape(flat, quote=False).replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`")
    )


def _row(result: TaskResult, repeats: bool) -> str:
    mark = " ⚠" if result.suspicious else ""
    reason = (result.failure or "")[:REASON_CHARS]
    cells = [
        cell(run_name(result, repeats)),
        f"{result.shown_status}{mark}",
        "?" if result.steps is None else str(result.steps),
        cell(format_usage_tokens(result.usage)),
        cell(format_cost(result.usage.cost_usd, result.usage.cost_incomplete)),
        format_seconds(result.duration_ms),
        cell(reason),
    ]
    return "| " + " | ".join(cells) + " |"


def markdown(report: Report) -> str:
    """A heading, both rates, the table of runs and the totals."""
    repeats = report.settings.repeat > 1
    lines = [f"### garuda eval {cell(report.run_id)}", "", cell(rates_line(report.summary))]
    lines += [
        "",
        "| run | result | steps | tokens | cost | time | failure |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- |",
        *(_row(result, repeats) for result in report.results),
        "",
        cell(totals_line(report.summary)),
    ]
    if any(r.suspicious for r in report.results):
        lines += [
            "",
            "⚠ suspicious: the change reaches into the test runner; read it before trusting.",
        ]
    if report.interrupted:
        lines += ["", "**interrupted: this report is partial**"]
    return "\n".join(lines) + "\n"


class MarkdownFormatter(ReportFormatter):
    """``--report-format markdown``: the summary table on stdout and in the job summary."""

    name = "markdown"

    def render(self, report: Report) -> str:
        """The Markdown summary."""
        return markdown(report)

    def publish(self, report: Report, run_dir: Path, *, stdout: TextIO, stderr: TextIO) -> None:
        """Print the summary; append it to ``$GITHUB_STEP_SUMMARY`` when that is set."""
        text = self.render(report)
        stdout.write(text)
        target = os.environ.get(STEP_SUMMARY)
        if not target:
            return
        try:
            with Path(target).open("a", encoding="utf-8") as summary:
                summary.write(text + "\n")
        except OSError as error:
            print(f"garuda: warning: ${STEP_SUMMARY} ({target}): {error.strerror}", file=stderr)
            return
        print(f"markdown: appended to ${STEP_SUMMARY} ({target})", file=stderr)
