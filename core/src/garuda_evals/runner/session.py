"""One ``garuda eval`` run, from flags to report.json; every input is checked before any agent call."""

from __future__ import annotations

import contextlib
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import anyio

from garuda_evals.agents.base import Agent, AgentFactory, RunLimits
from garuda_evals.agents.noop import NoopAgent
from garuda_evals.agents.refusals import refuse_backend_options, refuse_foreign_options
from garuda_evals.errors import UsageError
from garuda_evals.models.events import EventKind, RunEvent, RunStarted
from garuda_evals.models.report import Report
from garuda_evals.models.result import Status, TaskResult
from garuda_evals.models.settings import RunSettings
from garuda_evals.plugins.drivers import AGENTS, EXECUTORS, driver_names, load_driver
from garuda_evals.plugins.known import AGENTS as KNOWN_AGENTS
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.report.formatter import ReportFormatter
from garuda_evals.runner.agent_paths import check_agent_paths
from garuda_evals.runner.backends import choose_backend
from garuda_evals.runner.executor_choice import choose_executor
from garuda_evals.runner.journal import (
    ResultsJournal,
    RunManifest,
    job_key,
    latest,
    read_results,
    still_to_run,
    suite_fingerprints,
    write_manifest,
)
from garuda_evals.runner.live import LiveOutput
from garuda_evals.runner.paths import evals_dir, hidden_project, new_run_id
from garuda_evals.runner.pipes import pipe_safe
from garuda_evals.runner.report_build import (
    budget_note,
    build_report,
    run_notes,
    save_report,
    versions,
)
from garuda_evals.runner.resume import Resume, check_same
from garuda_evals.runner.run import fresh_attempts, plan_jobs
from garuda_evals.runner.selection import Selected, select
from garuda_evals.runner.selftest import apply_selftest, task_version
from garuda_evals.runner.stored_change import ChangeStore
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


def make_agent(
    factory: AgentFactory,
    settings: RunSettings,
    executor_kind: str,
    selected: list[Selected],
    cwd: Path,
) -> Agent:
    """The run's agent; under an OS sandbox, the paths it shows read-only (its own files)
    are first checked against what the sandbox hides (``check_agent_paths``)."""
    agent = factory.create(settings)
    if executor_kind == "os":
        check_agent_paths(agent.read_only_paths(), selected, cwd)
    return agent


def choose_formatter(
    registry: PluginRegistry, name: str, *, flag: str = "--report-format"
) -> ReportFormatter:
    """The ``--report-format`` formatter (``flag`` names the option in the error)."""
    formatters = registry.formatters()
    if name not in formatters:
        raise UsageError(f"{flag} {name}: unknown; choose one of: {', '.join(sorted(formatters))}")
    return formatters[name].record.load()


def exit_code(results: list[TaskResult], interrupted: bool, planned: int) -> int:
    """0 when every one of the ``planned`` runs ran and passed, 130 when interrupted, else 2
    (a run the spend cap kept from starting has no row, and did not pass)."""
    if interrupted:
        return EXIT_INTERRUPTED
    if results and len(results) == planned and all(r.status is Status.PASS for r in results):
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
    resume: Resume | None = None,
) -> EvalOutcome:
    """Check every input, probe the toolchains, run the jobs and write report.json.

    Each finished run is appended to ``results.jsonl`` as it ends; with ``resume`` only the
    runs that file lacks (or that were interrupted, or with ``--retry-errors`` errored) run.
    """
    stdout, stderr = pipe_safe(stdout or sys.stdout), pipe_safe(stderr or sys.stderr)
    factory = choose_agent(settings, registry)
    refuse_foreign_options(factory, settings, registry)
    refuse_backend_options(settings, registry)
    if resume is None:
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
    backend = choose_backend(registry, settings.backend)
    print(f"executor: {choice.backend.name} ({choice.reason})", file=stderr)
    required = {name for item in selected for name in item.task.requires}
    toolchains = await check_toolchains(registry, required, reprobe=settings.reprobe)
    await backend.prepare(settings, required)
    limits = factory.limits(settings) or RunLimits()
    if selected and resume is None:
        factory.preflight(settings)
    # made before the run folder: an agent that cannot be made, or shows what the sandbox
    # hides, leaves nothing behind (a resumed run's is made once it has runs left)
    agent = (
        make_agent(factory, settings, choice.backend.kind, selected, cwd)
        if resume is None
        else None
    )
    agent_description = dict(factory.describe(settings))
    used = versions(
        registry,
        drivers=(
            driver_names(EXECUTORS).get(choice.backend.name, ""),
            driver_names(AGENTS).get(factory.name, ""),
        ),
    )
    fingerprints = suite_fingerprints(selected)
    if resume is not None:
        check_same(resume, versions=used, agent=agent_description, suites=fingerprints)
        run_id, run_dir, started = resume.manifest.run_id, resume.run_dir, resume.manifest.started
    else:
        run_id, started = new_run_id(), time.time()
        run_dir = evals_dir(cwd) / run_id
        run_dir.mkdir(parents=True, exist_ok=True)
    all_jobs = plan_jobs(selected, settings.repeat, run_dir)
    keys = [job_key(j.item.task.suite, j.item.task.id, j.repeat) for j in all_jobs]
    if resume is None:
        manifest = RunManifest(
            run_id=run_id,
            started=started,
            settings=settings,
            agent=agent_description,
            versions=used,
            suites=fingerprints,
            jobs=keys,
        )
        write_manifest(manifest, run_dir)
    rows = read_results(run_dir)
    current, _ = latest(rows)
    redo = still_to_run(current, resume is not None and resume.retry_errors)
    jobs = [
        job for job, key in zip(all_jobs, keys, strict=True) if key not in current or key in redo
    ]
    retrying = {
        job.index
        for job, key in zip(all_jobs, keys, strict=True)
        if key in current and current[key].status is Status.ERR and key in redo
    }
    if resume is not None:
        print(
            f"{resume.flag} {run_id}: {len(all_jobs) - len(jobs)} of {len(all_jobs)} runs "
            f"kept, {len(jobs)} to run",
            file=stderr,
        )
    if resume is not None and jobs:
        # checked only now: a resumed run with nothing left calls no agent (needs no API key)
        factory.check_settings(settings)
        factory.preflight(settings)
        jobs = fresh_attempts(jobs, all_jobs, rows)
        agent = make_agent(factory, settings, choice.backend.kind, selected, cwd)
    # nothing left to run: no agent is made (an agent CLI's needs the API key)
    agent = agent or NoopAgent()
    parallel = min(limits.parallel, len(all_jobs)) if limits.parallel else settings.parallel
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
        result.retried = result.retried or job.index in retrying
        journal.append(result)
        results[job.index] = None  # on disk now; the report reads it back, memory keeps none
        live.result(tag(job), result)
        if result.workspace:
            live.line(f"[{tag(job)}] kept: {result.workspace}")
        registry.notify("garuda_task_finished", result=result)

    changes = ChangeStore()
    context = TaskContext(
        settings=settings,
        agent=agent,
        backend=choice.backend,
        runners=runners,
        emit=emit,
        hidden=hidden_project(cwd),
        task_timeout_s=limits.task_timeout_s or settings.task_timeout_s,
        changes=changes,
    )
    registry.notify(
        "garuda_run_started",
        run=RunStarted(run_id, len(jobs), str(run_dir), choice.backend.name, factory.name),
    )
    results: list[TaskResult | None] = [None] * len(all_jobs)
    state = {"interrupted": False}
    journal = ResultsJournal(run_dir)
    with anyio.CancelScope() as scope, contextlib.closing(changes), contextlib.closing(journal):
        async with anyio.create_task_group() as group:
            group.start_soon(_watch_signals, scope, state)
            group.start_soon(journal.keep_synced)
            await backend.run_jobs(
                jobs, context, parallel=parallel, results=results, on_result=on_result
            )
            group.cancel_scope.cancel()
    with anyio.CancelScope(shield=True):
        await backend.aclose()
    live.finish()
    current, replaced = latest(read_results(run_dir))
    finished_results = [current[key] for key in keys if key in current]
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
        interrupted=state["interrupted"] or len(finished_results) < len(all_jobs),
        versions_used=used,
        replaced=replaced,
    )
    report.backend = backend.name
    apply_selftest(report, {(i.task.suite, i.task.id): task_version(i.task) for i in selected}, cwd)
    report.warnings += run_notes(finished_results, replaced)
    spent = agent.budget_spent()
    budget = budget_note(spent, finished_results, len(all_jobs))
    report.stopped_by, report.warnings = (spent if budget else None), report.warnings + budget
    path = save_report(report, run_dir)
    registry.notify("garuda_run_finished", report=report)
    formatter.publish(report, run_dir, stdout=stdout, stderr=stderr)
    print(f"report: {path}", file=stderr)
    code = exit_code(finished_results, state["interrupted"], len(all_jobs))
    return EvalOutcome(report, path, code)
