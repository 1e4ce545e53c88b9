"""``run_jobs`` runs ``parallel`` workers over the jobs in order: no task waits for each job
not started yet (a thousand runs hold two tasks, not a thousand), results at their index."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest

from garuda_evals.models.result import Status, TaskResult
from garuda_evals.models.task import CheckSpec, Task
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


def _selected(*ids: str) -> list[Any]:
    check = CheckSpec(command="true", runner="junit")
    tasks = [Task(id=i, title=i, prompt="p", suite="s", check=check) for i in ids]
    return [SimpleNamespace(suite=None, task=task) for task in tasks]


def _row(task: str, repeat: int, transcript: Path) -> TaskResult:
    return TaskResult(
        task=task, suite="s", repeat=repeat, status=Status.INTERRUPTED, transcript=str(transcript)
    )


def test_a_job_run_again_gets_files_no_earlier_attempt_has(tmp_path: Path) -> None:
    planned = run.plan_jobs(_selected("add", "add.attempt-2", "mul", "div"), 2, tmp_path)
    by_name = {(j.item.task.id, j.repeat): j for j in planned}
    rows = [_row("add", 1, Path("/moved/elsewhere/add.jsonl"))]  # a row names add.jsonl
    (tmp_path / "add-2.jsonl").write_text("a killed attempt\n")  # a crash left it, no row
    (tmp_path / "changes").mkdir()
    (tmp_path / "changes" / "mul.diff").write_text("a killed attempt's change\n")
    again = [by_name[key] for key in [("add", 1), ("add", 2), ("add.attempt-2", 1), ("mul", 1)]]
    again.append(by_name[("div", 1)])
    fresh = run.fresh_attempts(again, planned, rows)
    names = [(job.transcript.name, job.change and job.change.name) for job in fresh]
    assert names == [
        ("add.attempt-3.jsonl", "add.attempt-3.diff"),  # attempt-2 is another task's name
        ("add-2.attempt-2.jsonl", "add-2.attempt-2.diff"),
        ("add.attempt-2.jsonl", "add.attempt-2.diff"),  # its own first attempt: kept
        ("mul.attempt-2.jsonl", "mul.attempt-2.diff"),
        ("div.jsonl", "div.diff"),  # nothing of an earlier attempt: kept
    ]
    assert all(job.transcript.parent == tmp_path for job in fresh)
    assert all(job.change and job.change.parent == tmp_path / "changes" for job in fresh)
    assert [(j.index, j.repeat, j.item) for j in fresh] == [
        (j.index, j.repeat, j.item) for j in again
    ]

    # the next resume: add.attempt-3 has a row now, so the third attempt takes the next name
    rows.append(_row("add", 1, tmp_path / "add.attempt-3.jsonl"))
    (third,) = run.fresh_attempts([by_name[("add", 1)]], planned, rows)
    assert third.transcript.name == "add.attempt-4.jsonl"
    (tmp_path / "add.attempt-4.jsonl").write_text("killed before its row\n")
    (fourth,) = run.fresh_attempts([by_name[("add", 1)]], planned, rows)
    assert fourth.transcript.name == "add.attempt-5.jsonl"
