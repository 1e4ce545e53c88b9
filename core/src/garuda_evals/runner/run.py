"""Run every job of a run: ``--parallel`` slots, results in task order, clean interrupts."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import anyio

from garuda_evals.agents.base import Progress
from garuda_evals.models.result import TaskResult
from garuda_evals.removal import removing_in_background
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


def _written(job: Job, named: set[str]) -> bool:
    """``job``'s files are someone else's: a row (or a job) in ``named`` has its transcript,
    or the transcript or the change is on disk (a crash left them without a row)."""
    change = job.change is not None and job.change.exists()
    return job.transcript.name in named or job.transcript.exists() or change


def fresh_attempts(jobs: list[Job], planned: list[Job], rows: list[TaskResult]) -> list[Job]:
    """``jobs`` of a resumed run, each with files no earlier attempt wrote.

    A job run again (an interrupted or error run, or one a crash left without a row) keeps
    its planned names only when nothing of an earlier attempt has them; else its transcript
    is ``<name>.attempt-N.jsonl`` (and its change ``<name>.attempt-N.diff``) with the first
    N from 2 that no row, planned job or file has. Its row names the new transcript.
    """
    named = {Path(row.transcript).name for row in rows if row.transcript}
    taken = named | {job.transcript.name for job in planned}
    fresh: list[Job] = []
    for job in jobs:
        if _written(job, named):
            stem = job.transcript.name.removesuffix(".jsonl")
            number = 2
            while True:
                renamed = _named(job, f"{stem}.attempt-{number}.jsonl")
                if not _written(renamed, taken):
                    break
                number += 1
            job = renamed
            taken.add(job.transcript.name)
        fresh.append(job)
    return fresh


def _named(job: Job, name: str) -> Job:
    path = job.transcript.with_name(name)
    change = None if job.change is None else job.change.with_name(Path(name).stem + ".diff")
    return replace(job, transcript=path, change=change)


async def run_one(
    job: Job, context: TaskContext, on_result: Callable[[Job, TaskResult], None]
) -> TaskResult:
    """Run ``job`` and hand its row to ``on_result``. When the surrounding scope is cancelled
    (Ctrl-C), the row handed on is an interrupted one with what the agent had used until
    then (its ``Progress``), and the cancellation goes on."""
    progress = Progress()
    started = time.monotonic()
    try:
        result = await run_job(job, context, progress)
    except anyio.get_cancelled_exc_class():
        elapsed = int((time.monotonic() - started) * 1000)
        on_result(job, interrupted_row(job, progress, elapsed))
        raise
    on_result(job, result)
    return result


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
    agent's budget is spent (``Agent.budget_spent``). The runs' scratch folders are removed
    in the background (``removal.remove_soon``), all of them before this returns.
    """
    pending = iter(jobs)

    def store(job: Job, result: TaskResult) -> None:
        results[job.index] = result
        on_result(job, result)

    async def one(job: Job) -> None:
        if context.agent.budget_spent() is None:
            await run_one(job, context, store)

    async def worker() -> None:
        for job in pending:  # shared by the workers: each job is taken once, in order
            await one(job)

    async with removing_in_background(), anyio.create_task_group() as group:
        for _ in range(min(max(1, parallel), len(jobs))):
            group.start_soon(worker)
