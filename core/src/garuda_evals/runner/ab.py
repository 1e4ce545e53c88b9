"""``garuda ab``: two arms run interleaved task by task until a sequential test decides.

Each arm is a ``garuda eval`` set-up (agent, executor, check runners, toolchains) prepared
once, as ``run_eval`` does. Round r runs repeat r of every task in both arms, one pair at a
time (the arm that goes first alternates); after each pair the betting e-process is updated,
and the A/B stops as soon as it decides or after ``max_repeat`` rounds. A pair with an error
run is left out of the test, as error runs are left out of the scored rate.

Each arm's folder is an ordinary run folder, written as ``garuda eval`` writes one: run.json
(rewritten as each round starts: its repeats are the rounds so far), results.jsonl (a row per
finished run, an INT row for a run Ctrl-C stopped) and the kept changes, then report.json.
So ``garuda compare``, ``report``, ``regrade`` and ``eval --resume`` (which completes the
arm's last round) work on it. Observers get the same hooks as for ``garuda eval`` (run
started, events, task finished, run finished), per arm.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import anyio

from garuda_evals.agents.base import RunLimits
from garuda_evals.agents.refusals import refuse_backend_options, refuse_foreign_options
from garuda_evals.errors import UsageError
from garuda_evals.models.events import EventKind, RunEvent, RunStarted
from garuda_evals.models.report import Report
from garuda_evals.models.result import Status, TaskResult
from garuda_evals.models.settings import RunSettings
from garuda_evals.plugins.drivers import AGENTS, EXECUTORS, driver_names
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.report import units
from garuda_evals.runner.executor_choice import Choice, choose_executor
from garuda_evals.runner.journal import (
    ResultsJournal,
    RunManifest,
    job_key,
    latest,
    read_results,
    suite_fingerprints,
    write_manifest,
)
from garuda_evals.runner.paths import evals_dir, hidden_project, new_run_id
from garuda_evals.runner.report_build import build_report, run_notes, save_report, versions
from garuda_evals.runner.run import plan_jobs, run_one
from garuda_evals.runner.selection import Selected, select
from garuda_evals.runner.selftest import apply_selftest, task_version
from garuda_evals.runner.session import _watch_signals as watch_signals
from garuda_evals.runner.session import choose_agent, make_agent
from garuda_evals.runner.stored_change import ChangeStore
from garuda_evals.runner.task_run import Job, TaskContext
from garuda_evals.runner.toolchain_check import check_toolchains
from garuda_evals.stats.paired import pairs_needed
from garuda_evals.stats.sequential import PairedBettingTest
from garuda_evals.toolchains.base import ToolchainStatus

POWER = 0.8


@dataclass
class Arm:
    """One arm, set up once: its settings, agent, executor, run folder and the runs it made."""

    label: str
    settings: RunSettings
    registry: PluginRegistry
    selected: list[Selected]
    context: TaskContext
    choice: Choice
    agent_description: dict[str, str]
    limits: RunLimits
    toolchains: dict[str, ToolchainStatus]
    versions: dict[str, str]
    cwd: Path
    run_dir: Path
    run_id: str
    started: float = field(default_factory=time.time)
    results: list[TaskResult] = field(default_factory=list)
    jobs: dict[str, Job] = field(default_factory=dict)
    journal: ResultsJournal | None = None

    def open(self, max_repeat: int) -> ResultsJournal:
        """Make the run folder and plan every run it may make; return its results journal."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        for job in plan_jobs(self.selected, max_repeat, self.run_dir):
            self.jobs[job_key(job.item.task.suite, job.item.task.id, job.repeat)] = job
        self.journal = ResultsJournal(self.run_dir)
        return self.journal

    def close(self) -> None:
        """Flush and close the results journal; remove the change snapshots' git folder."""
        if self.context.changes is not None:
            self.context.changes.close()
        if self.journal is not None:
            self.journal.close()

    def keys(self, rounds: int) -> list[str]:
        """The job keys of the first ``rounds`` rounds, in task order (as ``garuda eval``)."""
        return [key for key, job in self.jobs.items() if job.repeat <= rounds]

    def settings_of(self, rounds: int) -> RunSettings:
        """The arm's settings as a run of ``rounds`` repeats (at least one)."""
        return self.settings.model_copy(update={"repeat": max(rounds, 1)})

    def begin(self, rounds: int) -> None:
        """Write run.json for a run of ``rounds`` repeats (before the round's first run)."""
        manifest = RunManifest(
            run_id=self.run_id,
            started=self.started,
            settings=self.settings_of(rounds),
            agent=self.agent_description,
            versions=self.versions,
            suites=suite_fingerprints(self.selected),
            jobs=self.keys(max(rounds, 1)),
        )
        write_manifest(manifest, self.run_dir)

    def _finished(self, job: Job, result: TaskResult) -> None:
        assert self.journal is not None, "open the arm first"
        self.journal.append(result)
        self.results.append(result)
        self.registry.notify("garuda_task_finished", result=result)

    async def run(self, item: Selected, repeat: int) -> TaskResult:
        """Run ``item`` once more in this arm; its row goes to results.jsonl (Ctrl-C: INT)."""
        job = self.jobs[job_key(item.task.suite, item.task.id, repeat)]
        return await run_one(job, self.context, self._finished)

    def save(self, rounds: int, note: str, interrupted: bool) -> tuple[Report, Path]:
        """Write this arm's run.json and report.json (its settings say how many rounds ran)."""
        self.begin(rounds)
        keys = self.keys(max(rounds, 1))
        current, replaced = latest(read_results(self.run_dir))
        results = [current[key] for key in keys if key in current]
        report = build_report(
            run_id=self.run_id,
            started=self.started,
            finished=time.time(),
            settings=self.settings_of(rounds),
            limits=self.limits,
            parallel=1,
            agent=self.agent_description,
            executor=self.choice.backend.info(),
            chosen_because=self.choice.reason,
            registry=self.registry,
            toolchains=self.toolchains,
            results=results,
            interrupted=interrupted,
            versions_used=self.versions,
            replaced=replaced,
        )
        report.warnings += [*run_notes(results, replaced), note]
        digests = {(i.task.suite, i.task.id): task_version(i.task) for i in self.selected}
        apply_selftest(report, digests, self.cwd)
        path = save_report(report, self.run_dir)
        self.registry.notify("garuda_run_finished", report=report)
        return report, path

    def announce(self, max_repeat: int) -> None:
        """Tell observers the arm's run started (its total is the most it may run)."""
        started = RunStarted(
            self.run_id,
            len(self.selected) * max_repeat,
            str(self.run_dir),
            self.choice.backend.name,
            self.agent_description.get("agent", ""),
        )
        self.registry.notify("garuda_run_started", run=started)


def _keys(selected: list[Selected]) -> list[tuple[str, str]]:
    return [(item.task.suite, item.task.id) for item in selected]


async def prepare_arm(
    label: str, settings: RunSettings, registry: PluginRegistry, cwd: Path, stderr: TextIO
) -> Arm:
    """Check the arm's flags, suites, agent, executor and toolchains, as ``garuda eval`` does.

    Nothing is written yet: the run folder is made by ``Arm.open`` once both arms are ready.
    """
    factory = choose_agent(settings, registry)
    refuse_foreign_options(factory, settings, registry)
    refuse_backend_options(settings, registry)
    factory.check_settings(settings)
    selected = select(registry, settings.suites, settings.task_ids)
    for suite in {id(item.suite): item.suite for item in selected}.values():
        suite.check_settings(settings)
    records = registry.check_runners()
    runners = {n: records[n].record.load() for n in {i.task.check.runner for i in selected}}
    choice = choose_executor(settings.executor, registry)
    print(f"arm {label}: executor {choice.backend.name} ({choice.reason})", file=stderr)
    required = {n for i in selected for n in i.task.requires}
    toolchains = await check_toolchains(registry, required, reprobe=settings.reprobe)
    limits = factory.limits(settings) or RunLimits()
    if selected:
        factory.preflight(settings)
    used = versions(
        registry,
        drivers=(
            driver_names(EXECUTORS).get(choice.backend.name, ""),
            driver_names(AGENTS).get(factory.name, ""),
        ),
    )
    agent = make_agent(factory, settings, choice.backend.kind, selected, cwd)
    run_id = new_run_id()

    def emit(kind: EventKind, job: Job, message: str) -> None:
        event = RunEvent(kind=kind, task=job.item.task.id, repeat=job.repeat, message=message)
        registry.notify("garuda_event", event=event)

    context = TaskContext(
        settings=settings,
        agent=agent,
        backend=choice.backend,
        runners=runners,
        emit=emit,
        hidden=hidden_project(cwd),
        task_timeout_s=limits.task_timeout_s or settings.task_timeout_s,
        changes=ChangeStore(),
    )
    return Arm(
        label=label,
        settings=settings,
        registry=registry,
        selected=selected,
        context=context,
        choice=choice,
        agent_description=dict(factory.describe(settings)),
        limits=limits,
        toolchains=toolchains,
        versions=used,
        cwd=cwd,
        run_dir=evals_dir(cwd) / run_id,
        run_id=run_id,
    )


@dataclass(frozen=True)
class AbOutcome:
    """What the A/B decided and spent, and where both arms' reports are."""

    test: PairedBettingTest
    rounds: int
    runs: int
    fixed_runs: int
    reports: tuple[Path, Path]
    lines: list[str]
    interrupted: bool = False


def _line(result: TaskResult) -> str:
    return f"{result.status.value} {units.seconds(result.duration_ms)}"


async def _play(
    arm_a: Arm, arm_b: Arm, test: PairedBettingTest, max_repeat: int, stderr: TextIO
) -> None:
    """Rounds of pairs until the test decides or ``max_repeat`` rounds ran."""
    pair = 0
    for repeat in range(1, max_repeat + 1):
        arm_a.begin(repeat)
        arm_b.begin(repeat)
        for item_a, item_b in zip(arm_a.selected, arm_b.selected, strict=True):
            first, second = ((arm_a, item_a), (arm_b, item_b))
            if pair % 2:
                first, second = second, first
            pair += 1
            done = {first[0].label: await first[0].run(first[1], repeat)}
            done[second[0].label] = await second[0].run(second[1], repeat)
            scored = all(r.status in (Status.PASS, Status.FAIL) for r in done.values())
            if scored:
                test.update(done["A"].passed, done["B"].passed)
            left_out = "" if scored else " (an error run: the pair is left out)"
            print(
                f"[{item_a.task.suite}/{item_a.task.id}#{repeat}] A {_line(done['A'])} · "
                f"B {_line(done['B'])} · e-value {test.wealth:.2f} (decides at "
                f"{test.threshold:.0f}){left_out}",
                file=stderr,
            )
            if test.decided:
                return


async def run_ab(
    arm_a: Arm, arm_b: Arm, *, max_repeat: int, alpha: float, stderr: TextIO
) -> AbOutcome:
    """Run pairs round by round until the e-process decides or ``max_repeat`` rounds ran.

    Ctrl-C (or SIGTERM) stops it cleanly: the runs so far are saved as interrupted reports.
    """
    if _keys(arm_a.selected) != _keys(arm_b.selected):
        raise UsageError("--arm-a and --arm-b select different tasks; give -s/-t outside the arms")
    test = PairedBettingTest(alpha=alpha)
    state = {"interrupted": False}
    with contextlib.ExitStack() as arms:
        arms.callback(arm_a.close)
        arms.callback(arm_b.close)
        journals = (arm_a.open(max_repeat), arm_b.open(max_repeat))
        arm_a.announce(max_repeat)
        arm_b.announce(max_repeat)
        with anyio.CancelScope() as scope:
            async with anyio.create_task_group() as group:
                group.start_soon(watch_signals, scope, state)
                for journal in journals:
                    group.start_soon(journal.keep_synced)
                await _play(arm_a, arm_b, test, max_repeat, stderr)
                group.cancel_scope.cancel()
    interrupted = state["interrupted"]
    rounds = max((r.repeat for r in [*arm_a.results, *arm_b.results]), default=0)
    ending = "interrupted" if interrupted else f"decision: {test.decision or 'none'}"
    note = f"sequential A/B (garuda ab) arm {{label}}: {rounds} round(s) of at most {max_repeat}, "
    _, path_a = arm_a.save(rounds, note.format(label="A") + ending, interrupted)
    _, path_b = arm_b.save(rounds, note.format(label="B") + ending, interrupted)
    tasks = len(arm_a.selected)
    runs = len(arm_a.results) + len(arm_b.results)
    fixed = 2 * tasks * max_repeat
    lines = summary(test, runs, fixed, tasks)
    if interrupted:
        lines.insert(0, "interrupted: the A/B is partial")
    return AbOutcome(test, rounds, runs, fixed, (path_a, path_b), lines, interrupted)


def summary(test: PairedBettingTest, runs: int, fixed: int, tasks: int) -> list[str]:
    """The decision, the runs spent and what fixed designs would have spent, in words."""
    pairs = f"{test.b_wins + test.a_wins} discordant pair(s) of {test.pairs}"
    counts = f"B alone passed {test.b_wins}, A alone passed {test.a_wins}"
    if test.decision:
        decision = (
            f"decision: {test.decision} passes more (e-value {test.wealth:.1f} ≥ 1/α = "
            f"{test.threshold:.0f} after {pairs}: {counts})"
        )
    else:
        decision = (
            f"decision: none, no detectable difference at α {test.alpha} (e-value "
            f"{test.wealth:.2f} < {test.threshold:.0f} after {pairs}: {counts})"
        )
    lines = [decision, f"runs spent: {runs} ({runs // 2} per arm over {tasks} task(s))"]
    fixed_line = f"a fixed design of --max-repeat repeats would spend {fixed}"
    if test.decision and test.pairs:
        difference = abs(test.b_wins - test.a_wins) / test.pairs
        discordance = (test.b_wins + test.a_wins) / test.pairs
        if 0 < difference < 1:
            needed = 2 * pairs_needed(difference, discordance, alpha=test.alpha, power=POWER)
            fixed_line += (
                f"; a fixed-size exact test with {POWER * 100:.0f}% power for the observed "
                f"{difference * 100:.0f}-point difference, about {needed}"
            )
    return [*lines, fixed_line]
