"""Prove candidates in parallel (newest first), with the verdict cache, up to --max-tasks."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import anyio

from garuda_evals.api import GarudaError
from garuda_evals_repo_git.cache import Verdict, VerdictCache
from garuda_evals_repo_git.prove import Candidate, Prover

PROOF_ERROR = "the proof could not run"
PROGRESS_EVERY_S = 30.0


@dataclass(frozen=True)
class Outcome:
    """A candidate's verdict and whether it came from the cache."""

    candidate: Candidate
    verdict: Verdict
    cached: bool


def _line(index: int, total: int, outcome: Outcome) -> str:
    commit = outcome.candidate.commit
    verdict = outcome.verdict
    if verdict.reason is None:
        what = f"kept ({len(verdict.fail_to_pass)} test(s) go from failing to passing)"
    else:
        what = f"skipped: {verdict.reason}"
    cached = " (cached)" if outcome.cached else ""
    return f"[{index}/{total}] {commit.sha[:12]} {commit.subject[:60]}: {what}{cached}"


BAR_WIDTH = 20


def _duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes}m{rest:02d}s" if minutes else f"{rest}s"


def progress_bar(done: int, total: int, kept: int, elapsed: float) -> str:
    """``[#####...] 5/20 candidates done, 2 kept, 1m10s elapsed, about 3m30s left``.

    The estimate is the time per candidate done so far times the candidates left (an upper
    bound: the build stops proving once ``--max-tasks`` are kept).
    """
    filled = BAR_WIDTH * done // total if total else BAR_WIDTH
    bar = "#" * filled + "." * (BAR_WIDTH - filled)
    left = f"about {_duration(elapsed / done * (total - done))} left" if done else "no estimate yet"
    return (
        f"[{bar}] {done}/{total} candidates done, {kept} kept, {_duration(elapsed)} elapsed, {left}"
    )


async def mine(
    prover: Prover,
    candidates: list[Candidate],
    cache: VerdictCache,
    max_tasks: int,
    parallel: int,
    echo: Callable[[str], None],
    progress_every_s: float = PROGRESS_EVERY_S,
) -> dict[str, Outcome]:
    """Prove candidates in order, ``parallel`` at a time; launch no more once enough are kept.

    Every candidate launched is older than none that was not, so the first ``max_tasks`` kept
    in history order are always among the proved ones. Every ``progress_every_s``, a progress
    bar (candidates done, kept, time elapsed and an estimate of the time left), and a line
    for each proof whose current run has lasted that long, naming the run and its time so far.
    """
    outcomes: dict[str, Outcome] = {}
    limiter = anyio.CapacityLimiter(max(1, parallel))
    key = prover.command.cache_key
    total = len(candidates)
    kept = 0
    started = time.monotonic()

    def record(index: int, outcome: Outcome) -> None:
        nonlocal kept
        outcomes[outcome.candidate.commit.sha] = outcome
        kept += outcome.verdict.reason is None
        echo(_line(index, total, outcome))

    async def worker(index: int, candidate: Candidate) -> None:
        try:
            try:
                verdict = await prover.prove(candidate)
            except (GarudaError, OSError) as error:
                # Not cached: the next build tries again.
                verdict = Verdict(reason=PROOF_ERROR, failure_tail=str(error))
            else:
                cache.put(candidate.commit.sha, key, verdict)
            record(index, Outcome(candidate, verdict, cached=False))
        finally:
            limiter.release_on_behalf_of(candidate.commit.sha)

    async def heartbeat() -> None:
        while True:
            await anyio.sleep(progress_every_s)
            now = time.monotonic()
            echo(f"  {progress_bar(len(outcomes), total, kept, now - started)}")
            for sha, stage in sorted(prover.stages.items()):
                if now - stage.since >= progress_every_s:
                    echo(f"  ... {sha[:12]}: in its {stage.label} for {now - stage.since:.0f} s")

    async with anyio.create_task_group() as outer:
        outer.start_soon(heartbeat)
        await _launch(candidates, cache, key, limiter, max_tasks, lambda: kept, record, worker)
        outer.cancel_scope.cancel()
    return outcomes


async def _launch(
    candidates: list[Candidate],
    cache: VerdictCache,
    key: str,
    limiter: anyio.CapacityLimiter,
    max_tasks: int,
    kept: Callable[[], int],
    record: Callable[[int, Outcome], None],
    worker: Callable[[int, Candidate], Awaitable[None]],
) -> None:
    """Start a worker per candidate (cached verdicts recorded at once) until enough are kept."""
    async with anyio.create_task_group() as group:
        for index, candidate in enumerate(candidates, start=1):
            if kept() >= max_tasks:
                break
            cached = cache.get(candidate.commit.sha, key)
            if cached is not None:
                record(index, Outcome(candidate, cached, cached=True))
                continue
            await limiter.acquire_on_behalf_of(candidate.commit.sha)
            if kept() >= max_tasks:
                limiter.release_on_behalf_of(candidate.commit.sha)
                break
            group.start_soon(worker, index, candidate)
