"""Core's own plugin: the table and JSON formatters, the generic JUnit check runner and the
``local`` run backend."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from garuda_evals.hookspecs import hookimpl
from garuda_evals.records import CheckRunnerRecord, FormatterRecord, RunBackendRecord

if TYPE_CHECKING:
    from garuda_evals.checks.base import CheckRunner
    from garuda_evals.report.formatter import ReportFormatter
    from garuda_evals.runner.backends import RunBackend


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


def _local() -> RunBackend:
    from garuda_evals.runner.backends import LocalBackend

    return LocalBackend()


@hookimpl
def garuda_run_backends() -> Iterator[RunBackendRecord]:
    """``local``: every run in this process, ``--parallel`` at once."""
    yield RunBackendRecord(
        name="local", description="every run in this process, --parallel at once", load=_local
    )
