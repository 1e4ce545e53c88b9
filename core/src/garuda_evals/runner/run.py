"""Run every job of a run: ``--parallel`` slots, results in task order, clean interrupts."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import anyio

from garuda_evals.agents.base import Progress
from garuda_evals.models.result import TaskResult
from garuda_evals.runner.journal import RESULTS_FILE
from garuda_evals.runner.paths import transcript_name
from garuda_evals.runner.selection import Selected
from garuda_evals.runner.stored_change import CHANGES_DIR
from garuda_evals.runner.task_run import Job, TaskContext, interrupted_row, run_job

RESULTS_STEM = RESULTS_FILE.removesuffix(".jsonl")


def plan_jobs(selected: list[Selected], repeats: int, run_dir: Path) -> list[Job]:
    """Every task ``repeat`` times, in task order; transcripts named ``<task>[-n].jsonl``,
    changes ``changes/<task>[-n].diff``.

    Task ids that occur in two suites get the suite as a prefix, so transcripts never clash;
    so does a task named like the run's own results file.
    """
    ids = [item.task.id for item in selected]
    jobs: list[Job] = []
    for item in selected:
        unique = ids.count(item.task.id) == 1 and item.task.id != RESULTS_STEM
        stem = item.task.id if unique else f"{item.task.suite}.{item.task.id}"
        for repeat in range(1, repeats + 1):
            path = run_dir / transcript_name(stem, repeat)
            change = run_dir / CHANGES_DIR / path.with_suffix(".diff").name
            jobs.append(
                Job(index=len(jobs), item=item, repeat=repeat, transcript=path, change=change)
            )
    return jobs


async def run_jobs(
    jobs: list[Job],
    context: TaskContext,
    *,
    parallel: int,
    results: list[TaskResult | None],
    on_result: Callable[[Job, TaskResult], None],
) -> None:
    """Run jobs at most ``parallel`` at a time, storing each result at its job's index:
    ``parallel`` workers take the jobs in order (no task waits per job not started yet).

    When the surrounding scope is cancelled (Ctrl-C), running jobs clean up (their
    processes are killed and scratch folders removed) and become interrupted rows with what
    they had used; jobs not started yet get no row. Neither do jobs whose turn comes once the
    agent's budget is spent (``Agent.budget_spent``).
    """
    pending = iter(jobs)

    async def one(job: Job) -> None:
        if context.agent.budget_spent() is not None:
            return
        progress = Progress()
        started = time.monotonic()
        try:
            result = await run_job(job, context, progress)
        except anyio.get_cancelled_exc_class():
            elapsed = int((time.monotonic() - started) * 1000)
            row = interrupted_row(job, progress, elapsed)
            results[job.index] = row
            on_result(job, row)
            raise
        results[job.index] = result
        on_result(job, result)

    async def worker() -> None:
        for job in pending:  # shared by the workers: each job is taken once, in order
            await one(job)

    async with anyio.create_task_group() as group:
        for _ in range(min(max(1, parallel), len(jobs))):
            group.start_soon(worker)
