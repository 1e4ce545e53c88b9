"""Every hook of garuda-evals, in one place.

A plugin is a module (or object) that implements some of these with ``@hookimpl`` and
is named by an entry point in the ``garuda_evals`` group::

    [project.entry-points.garuda_evals]
    go = "garuda_evals_go.plugin"

Registration hooks yield records (see ``garuda_evals.records``) and do no work; the
record's ``load`` is called only when the thing is used. Lifecycle hooks observe a run.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from garuda_evals.models.events import RunEvent, RunStarted
    from garuda_evals.models.report import Report
    from garuda_evals.models.result import TaskResult
    from garuda_evals.records import (
        CheckRunnerRecord,
        CommandRecord,
        FormatterRecord,
        OptionsRecord,
        RunBackendRecord,
        SuiteBuilderRecord,
        SuiteRecord,
        ToolchainRecord,
    )

PROJECT = "garuda_evals"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def garuda_suites() -> Iterable[SuiteRecord]:
    """Register suites. Called when suites are listed or chosen with ``-s``.

    Example::

        @hookimpl
        def garuda_suites():
            yield SuiteRecord(
                name="go",
                description="five small Go modules checked with go test",
                load=lambda: load_folder_suite(files("garuda_evals_go") / "suite_data"),
                requires=("go",),
            )
    """


@hookspec
def garuda_toolchains() -> Iterable[ToolchainRecord]:
    """Register toolchains that tasks name in ``requires``. Called before the first agent call.

    Example::

        @hookimpl
        def garuda_toolchains():
            yield ToolchainRecord(name="go", description="Go with go test", load=go_toolchain)
    """


@hookspec
def garuda_check_runners() -> Iterable[CheckRunnerRecord]:
    """Register check runners (test-runner adapters) that a task's ``check.runner`` names.

    Example::

        @hookimpl
        def garuda_check_runners():
            yield CheckRunnerRecord(
                name="go-test",
                description="go test with JUnit XML from go-junit-report",
                load=lambda: JUnitCheckRunner("go-test"),
            )
    """


@hookspec
def garuda_report_formatters() -> Iterable[FormatterRecord]:
    """Register report formatters for ``--report-format``.

    Example::

        @hookimpl
        def garuda_report_formatters():
            yield FormatterRecord(name="markdown", description="a Markdown table", load=Markdown)
    """


@hookspec
def garuda_commands() -> Iterable[CommandRecord]:
    """Register ``garuda`` sub-commands. Called when the CLI is built.

    Example::

        @hookimpl
        def garuda_commands():
            yield CommandRecord(name="sandbox", description="check the sandbox", load=lambda: cli)
    """


@hookspec
def garuda_suite_builders() -> Iterable[SuiteBuilderRecord]:
    """Register suite sources that build a suite on demand (``--from-git`` uses ``git``).

    Example::

        @hookimpl
        def garuda_suite_builders():
            yield SuiteBuilderRecord(name="git", description="mine git history", load=GitBuilder)
    """


@hookspec
def garuda_options() -> Iterable[OptionsRecord]:
    """Register the options a plugin owns for ``garuda eval`` (or another command).

    Called when the CLI is built. The CLI attaches each option under the plugin's heading in
    ``--help``; the values reach the run validated by the record's model, and report.json
    records them grouped by owner. Give ``agents`` to options only some agents honour.

    Example::

        @hookimpl
        def garuda_options():
            yield OptionsRecord(
                name="gemini-cli",
                description="the Gemini CLI agent",
                options=(Option(("--sandbox-mode",), "gemini's own sandbox",
                                choices=("on", "off"), agents=("gemini-cli",)),),
                model=lambda: GeminiOptions,
            )
    """


@hookspec
def garuda_run_backends() -> Iterable[RunBackendRecord]:
    """Register run backends for ``--backend``: engines that run a run's task runs.

    Called when ``garuda eval`` starts, before any agent call. Core registers ``local``
    (this process, ``--parallel`` at once). A backend's ``load`` returns a ``RunBackend``
    (see ``garuda_evals.runner.backends``): ``prepare`` connects and checks its nodes,
    ``run_jobs`` runs the jobs with the same ``run_job`` code, ``aclose`` releases.

    Example::

        @hookimpl
        def garuda_run_backends():
            yield RunBackendRecord(
                name="ray", description="task runs as Ray tasks on a cluster", load=RayBackend
            )
    """


@hookspec
def garuda_add_hookspecs() -> Iterable[object]:
    """Return modules or classes of hookspecs this plugin brings for plugins of its own.

    Called once, after every plugin is loaded and before hooks are checked.

    Example::

        @hookimpl
        def garuda_add_hookspecs():
            from garuda_evals_agent import hookspecs
            return [hookspecs]
    """


@hookspec
def garuda_run_started(run: RunStarted) -> None:
    """Called once the toolchains passed, before the first agent call.

    Example::

        @hookimpl
        def garuda_run_started(run):
            print(f"run {run.run_id}: {run.total} runs")
    """


@hookspec
def garuda_event(event: RunEvent) -> None:
    """Called for every live event (task started, tool call, retry, notice, task finished).

    Example::

        @hookimpl
        def garuda_event(event):
            if event.kind == "retry":
                log.warning(event.message)
    """


@hookspec
def garuda_task_finished(result: TaskResult) -> None:
    """Called after each run of a task, with its result row.

    Example::

        @hookimpl
        def garuda_task_finished(result):
            metrics.observe(result.task, result.status)
    """


@hookspec
def garuda_run_finished(report: Report) -> None:
    """Called after report.json is written (also for an interrupted run).

    Example::

        @hookimpl
        def garuda_run_finished(report):
            upload(report.to_json_dict())
    """
