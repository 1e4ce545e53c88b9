"""Core's own plugin: the table and JSON formatters and the generic JUnit check runner."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from garuda_evals.hookspecs import hookimpl
from garuda_evals.records import CheckRunnerRecord, FormatterRecord

if TYPE_CHECKING:
    from garuda_evals.checks.base import CheckRunner
    from garuda_evals.report.formatter import ReportFormatter


def _table() -> ReportFormatter:
    from garuda_evals.report.table import TableFormatter

    return TableFormatter()


def _json() -> ReportFormatter:
    from garuda_evals.report.json_format import JsonFormatter

    return JsonFormatter()


def _junit() -> CheckRunner:
    from garuda_evals.checks.junit import JUnitCheckRunner

    return JUnitCheckRunner("junit")


@hookimpl
def garuda_report_formatters() -> Iterator[FormatterRecord]:
    """The terminal table and JSON."""
    yield FormatterRecord(name="table", description="the terminal table", load=_table)
    yield FormatterRecord(name="json", description="report.json's content", load=_json)


@hookimpl
def garuda_check_runners() -> Iterator[CheckRunnerRecord]:
    """A runner-neutral JUnit check: ``{junit}`` in the command is the report path."""
    yield CheckRunnerRecord(
        name="junit", description="any runner that writes JUnit XML to {junit}", load=_junit
    )
