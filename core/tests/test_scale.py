"""Long runs: finished rows are not kept in memory, and slow file work in one slot does not stop
the other (it runs in a worker thread, not on the event loop)."""

from __future__ import annotations

import gc
import io
import threading
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

from garuda_evals.hookspecs import hookimpl
from garuda_evals.models.result import Status, TaskResult
from garuda_evals.models.task import Task
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.records import SuiteRecord
from garuda_evals.runner.session import EvalOutcome, run_eval
from garuda_evals.suites.folder import FolderSuite
from garuda_evals.testing import run_settings

GATE_WAIT_S = 20.0


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / ".git").mkdir(parents=True)
    return folder


def evaluate(project: Path, registry: PluginRegistry, **settings: object) -> EvalOutcome:
    chosen = run_settings(**{"executor": "host", "agent": "oracle", **settings})

    async def go() -> EvalOutcome:
        return await run_eval(
            chosen, registry=registry, cwd=project, stdout=io.StringIO(), stderr=io.StringIO()
        )

    return anyio.run(go)


class RowCounter:
    """At every finished run, how many result rows are alive in the process."""

    def __init__(self) -> None:
        self.alive: list[int] = []

    @hookimpl
    def garuda_task_finished(self, result: TaskResult) -> None:
        gc.collect()
        self.alive.append(sum(isinstance(o, TaskResult) for o in gc.get_objects()))


def test_finished_rows_are_on_disk_not_kept_in_memory(project: Path, mini_suite: Path) -> None:
    registry, counter = PluginRegistry(), RowCounter()
    registry.register(counter, name="rows", distribution="garuda-evals-rows", version="1")
    outcome = evaluate(project, registry, suites=[str(mini_suite)], repeat=4)
    assert outcome.report is not None and len(outcome.report.results) == 8
    assert all(r.status is Status.PASS for r in outcome.report.results)
    # the row being reported, and none of the earlier ones (they are in results.jsonl)
    assert len(counter.alive) == 8 and max(counter.alive) <= 1, counter.alive


class GatedSuite(FolderSuite):
    """Each task's n-th materialize (1: the agent's folder, 2: the judge's copy) waits until
    the other task's n-th has started too: both slots must be in it at once."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.calls: dict[str, int] = {}
        self.barriers = {1: threading.Barrier(2), 2: threading.Barrier(2)}
        self.met: dict[int, list[bool]] = {1: [], 2: []}

    def materialize(self, task: Task, workspace: Path) -> None:
        number = self.calls[task.id] = self.calls.get(task.id, 0) + 1
        try:
            self.barriers[number].wait(GATE_WAIT_S)
            self.met[number].append(True)
        except threading.BrokenBarrierError:
            self.met[number].append(False)
        super().materialize(task, workspace)


class GatedSuites:
    def __init__(self, suite: GatedSuite) -> None:
        self.suite = suite

    @hookimpl
    def garuda_suites(self) -> Iterator[SuiteRecord]:
        yield SuiteRecord(
            name="gated", description="tasks that wait for each other", load=lambda: self.suite
        )


def test_a_slow_materialize_does_not_stop_the_other_slot(project: Path, mini_suite: Path) -> None:
    suite = GatedSuite(mini_suite)
    registry = PluginRegistry()
    registry.register(
        GatedSuites(suite), name="gated", distribution="garuda-evals-gated", version="1"
    )
    outcome = evaluate(project, registry, suites=["gated"], parallel=2)
    assert outcome.report is not None
    assert [r.status for r in outcome.report.results] == [Status.PASS, Status.PASS]
    # on the event loop, the first slot's wait would hold the other back until it gave up
    assert suite.met == {1: [True, True], 2: [True, True]}
