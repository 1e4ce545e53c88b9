"""``run_jobs`` runs ``parallel`` workers over the jobs in order: no task waits for each job
not started yet (a thousand runs hold two tasks, not a thousand), results at their index."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import anyio
import pytest

from garuda_evals.models.result import Status, TaskResult
from garuda_evals.runner import run


class Agent:
    def __init__(self, spent_after: int | None = None) -> None:
        self.started = 0
        self.spent_after = spent_after

    def budget_spent(self) -> str | None:
        if self.spent_after is not None and self.started >= self.spent_after:
            return "spent"
        return None


def test_a_thousand_jobs_hold_only_the_workers_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    agent = Agent()
    order: list[int] = []
    running = {"now": 0, "most": 0, "tasks": 0}

    async def fake_run_job(job: Any, context: Any, progress: Any) -> TaskResult:
        agent.started += 1
        order.append(job.index)
        running["now"] += 1
        running["most"] = max(running["most"], running["now"])
        running["tasks"] = max(running["tasks"], len(asyncio.all_tasks()))
        await anyio.sleep(0)
        running["now"] -= 1
        return TaskResult(task=f"t{job.index}", suite="s", status=Status.PASS, repeat=1)

    monkeypatch.setattr(run, "run_job", fake_run_job)
    jobs: list[Any] = [SimpleNamespace(index=index) for index in range(1000)]
    results: list[TaskResult | None] = [None] * len(jobs)
    finished: list[int] = []
    context: Any = SimpleNamespace(agent=agent)

    async def main() -> None:
        await run.run_jobs(
            jobs,
            context,
            parallel=2,
            results=results,
            on_result=lambda job, result: finished.append(job.index),
        )

    anyio.run(main)
    assert order == list(range(1000))
    assert sorted(finished) == list(range(1000))
    assert all(result is not None and result.task == f"t{i}" for i, result in enumerate(results))
    assert running["most"] == 2
    assert running["tasks"] <= 4  # the two workers, the main task, anyio's own


def test_once_the_budget_is_spent_no_job_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    agent = Agent(spent_after=3)

    async def fake_run_job(job: Any, context: Any, progress: Any) -> TaskResult:
        agent.started += 1
        return TaskResult(task="t", suite="s", status=Status.PASS, repeat=1)

    monkeypatch.setattr(run, "run_job", fake_run_job)
    jobs: list[Any] = [SimpleNamespace(index=index) for index in range(10)]
    results: list[TaskResult | None] = [None] * len(jobs)
    context: Any = SimpleNamespace(agent=agent)

    async def main() -> None:
        await run.run_jobs(
            jobs, context, parallel=2, results=results, on_result=lambda job, result: None
        )

    anyio.run(main)
    assert agent.started == 3 and sum(result is not None for result in results) == 3
