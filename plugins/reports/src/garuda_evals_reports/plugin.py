"""The entry point: three report formatters registered through core's hook."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from garuda_evals.api import FormatterRecord, hookimpl

if TYPE_CHECKING:
    from garuda_evals.api import ReportFormatter


def _html() -> ReportFormatter:
    from garuda_evals_reports.html import HtmlFormatter

    return HtmlFormatter()


def _junit() -> ReportFormatter:
    from garuda_evals_reports.junit import JUnitFormatter

    return JUnitFormatter()


def _markdown() -> ReportFormatter:
    from garuda_evals_reports.markdown import MarkdownFormatter

    return MarkdownFormatter()


@hookimpl
def garuda_report_formatters() -> Iterator[FormatterRecord]:
    """HTML, JUnit XML and Markdown."""
    yield FormatterRecord(
        name="html", description="one self-contained report.html in the run folder", load=_html
    )
    yield FormatterRecord(
        name="junit", description="JUnit XML, one test case per task run", load=_junit
    )
    yield FormatterRecord(
        name="markdown",
        description="a Markdown summary table (also to $GITHUB_STEP_SUMMARY)",
        load=_markdown,
    )
