"""Run every job of a run: ``--parallel`` slots, results in task order, clean interrupts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import anyio

from garuda_evals.models.result import TaskResult
from garuda_evals.runner.paths import transcript_name
from garuda_evals.runner.selection import Selected
from garuda_evals.runner.task_run import Job, TaskContext, run_job


def plan_jobs(selected: list[Selected], repeats: int, run_dir: Path) -> list[Job]:
    """Every task ``repeat`` times, in task order; transcripts named ``<task>[-n].jsonl``.

    Task ids that occur in two suites get the suite as a prefix, so transcripts never clash.
    """
    ids = [item.task.id for item in selected]
    jobs: list[Job] = []
    for item in selected:
        stem = item.task.id if ids.count(item.task.id) == 1 else f"{item.task.suite}.{item.task.id}"
        for repeat in range(1, repeats + 1):
            path = run_dir / transcript_name(stem, repeat)
            jobs.append(Job(index=len(jobs), item=item, repeat=repeat, transcript=path))
    return jobs


async def run_jobs(
    jobs: list[Job],
    context: TaskContext,
    *,
    parallel: int,
    results: list[TaskResult | None],
    on_result: Callable[[Job, TaskResult], None],
) -> None:
    """Run jobs at most ``parallel`` at a time, storing each result at its job's index.

    When the surrounding scope is cancelled (Ctrl-C), running jobs clean up (their
    processes are killed and scratch folders removed); ``results`` keeps what finished.
    """
    limiter = anyio.CapacityLimiter(max(1, parallel))

    async def one(job: Job) -> None:
        async with limiter:
            result = await run_job(job, context)
        results[job.index] = result
        on_result(job, result)

    async with anyio.create_task_group() as group:
        for job in jobs:
            group.start_soon(one, job)
