"""One ``garuda eval`` run, from flags to report.json; every input is checked before any agent call."""

from __future__ import annotations

import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import anyio

from garuda_evals.agents.base import AgentFactory, RunLimits
from garuda_evals.agents.refusals import refuse_foreign_options
from garuda_evals.errors import UsageError
from garuda_evals.models.events import EventKind, RunEvent, RunStarted
from garuda_evals.models.report import Report
from garuda_evals.models.result import Status, TaskResult
from garuda_evals.models.settings import RunSettings
from garuda_evals.plugins.drivers import AGENTS, driver_names, load_driver
from garuda_evals.plugins.known import AGENTS as KNOWN_AGENTS
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.report.formatter import ReportFormatter
from garuda_evals.runner.executor_choice import choose_executor
from garuda_evals.runner.live import LiveOutput
from garuda_evals.runner.paths import evals_dir, hidden_project, new_run_id
from garuda_evals.runner.report_build import build_report, save_report
from garuda_evals.runner.run import plan_jobs, run_jobs
from garuda_evals.runner.selection import select
from garuda_evals.runner.task_run import Job, TaskContext
from garuda_evals.runner.toolchain_check import check_toolchains

MODEL_AGENT = "garuda"
EXIT_ALL_PASSED, EXIT_NOT_ALL_PASSED, EXIT_INTERRUPTED = 0, 2, 130


@dataclass(frozen=True)
class EvalOutcome:
    """The report (None when nothing ran), where it is, and the exit code."""

    report: Report | None
    report_path: Path | None
    exit_code: int


def choose_agent(settings: RunSettings, registry: PluginRegistry) -> AgentFactory:
    """``--agent NAME``, else the model agent; without it, say what to install or use."""
    name = settings.agent
    if name is None:
        if MODEL_AGENT not in driver_names(AGENTS):
            raise UsageError(
                "no model agent installed: install garuda-evals-agent to measure a model, "
                "or pick --agent oracle, noop or command"
            )
        name = MODEL_AGENT
    factory: AgentFactory = load_driver(
        AGENTS, name, what="agent", known=KNOWN_AGENTS, plugins=registry
    )
    return factory


def choose_formatter(registry: PluginRegistry, name: str) -> ReportFormatter:
    """The ``--report-format`` formatter."""
    formatters = registry.formatters()
    if name not in formatters:
        raise UsageError(
            f"--report-format {name}: unknown; choose one of: {', '.join(sorted(formatters))}"
        )
    return formatters[name].record.load()


def exit_code(results: list[TaskResult], interrupted: bool) -> int:
    """0 when every run passed, 130 when interrupted, else 2."""
    if interrupted:
        return EXIT_INTERRUPTED
    if results and all(r.status is Status.PASS for r in results):
        return EXIT_ALL_PASSED
    return EXIT_NOT_ALL_PASSED


async def _watch_signals(scope: anyio.CancelScope, state: dict[str, bool]) -> None:
    with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async for _ in signals:
            state["interrupted"] = True
            scope.cancel()
            return


async def run_eval(
    settings: RunSettings,
    *,
    registry: PluginRegistry,
    cwd: Path,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> EvalOutcome:
    """Check every input, probe the toolchains, run the jobs and write report.json."""
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    factory = choose_agent(settings, registry)
    refuse_foreign_options(factory, settings, registry)
    factory.check_settings(settings)
    selected = select(registry, settings.suites, settings.task_ids)
    for suite in {id(item.suite): item.suite for item in selected}.values():
        suite.check_settings(settings)
    formatter = choose_formatter(registry, settings.report_format)
    runner_records = registry.check_runners()
    runners = {
        name: runner_records[name].record.load()
        for name in {item.task.check.runner for item in selected}
    }
    choice = choose_executor(settings.executor, registry)
    print(f"executor: {choice.backend.name} ({choice.reason})", file=stderr)
    required = {name for item in selected for name in item.task.requires}
    toolchains = await check_toolchains(registry, required)
    limits = factory.limits(settings) or RunLimits()
    if selected:
        factory.preflight(settings)
    agent = factory.create(settings)
    run_id = new_run_id()
    run_dir = evals_dir(cwd) / run_id
    run_dir.mkdir(parents=True, exist_ok=True)
    jobs = plan_jobs(selected, settings.repeat, run_dir)
    parallel = min(limits.parallel, len(jobs)) if limits.parallel else settings.parallel
    live = LiveOutput(len(jobs), stream=stderr, repeats=settings.repeat > 1)

    def tag(job: Job) -> str:
        return live.tag(job.item.task.suite, job.item.task.id, job.repeat)

    def emit(kind: EventKind, job: Job, message: str) -> None:
        live.event(kind, tag(job), message)
        registry.notify(
            "garuda_event",
            event=RunEvent(kind=kind, task=job.item.task.id, repeat=job.repeat, message=message),
        )

    def on_result(job: Job, result: TaskResult) -> None:
        live.result(tag(job), result)
        registry.notify("garuda_task_finished", result=result)

    context = TaskContext(
        settings=settings,
        agent=agent,
        backend=choice.backend,
        runners=runners,
        emit=emit,
        hidden=hidden_project(cwd),
        task_timeout_s=limits.task_timeout_s or settings.task_timeout_s,
    )
    agent_description = dict(factory.describe(settings))
    registry.notify(
        "garuda_run_started",
        run=RunStarted(run_id, len(jobs), str(run_dir), choice.backend.name, factory.name),
    )
    results: list[TaskResult | None] = [None] * len(jobs)
    state = {"interrupted": False}
    started = time.time()
    with anyio.CancelScope() as scope:
        async with anyio.create_task_group() as group:
            group.start_soon(_watch_signals, scope, state)
            await run_jobs(jobs, context, parallel=parallel, results=results, on_result=on_result)
            group.cancel_scope.cancel()
    live.finish()
    finished_results = [r for r in results if r is not None]
    report = build_report(
        run_id=run_id,
        started=started,
        finished=time.time(),
        settings=settings,
        limits=limits,
        parallel=parallel,
        agent=agent_description,
        executor=choice.backend.info(),
        chosen_because=choice.reason,
        registry=registry,
        toolchains=toolchains,
        results=finished_results,
        interrupted=state["interrupted"],
    )
    path = save_report(report, run_dir)
    registry.notify("garuda_run_finished", report=report)
    stdout.write(formatter.render(report))
    print(f"report: {path}", file=stderr)
    return EvalOutcome(report, path, exit_code(finished_results, state["interrupted"]))
