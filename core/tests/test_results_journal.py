"""results.jsonl as a run writes it: each row written whole at once (a SIGKILL keeps it),
flushed to disk within ``SYNC_INTERVAL_S`` by one fsync for all rows written meanwhile, off
the event loop, and flushed once more when the run ends."""

from __future__ import annotations

import contextlib
import os
import signal
import stat
from pathlib import Path

import anyio
import pytest

from garuda_evals.models.result import Status, TaskResult
from garuda_evals.runner import journal as journal_module
from garuda_evals.runner.journal import SYNC_INTERVAL_S, ResultsJournal, read_results


def row(task: str) -> TaskResult:
    return TaskResult(task=task, suite="mini", status=Status.PASS, repeat=1)


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every fsync of a file (not of its folder), by descriptor; the real fsync still runs."""
    calls: list[int] = []
    real = os.fsync

    def counted(fd: int) -> None:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            calls.append(fd)
        real(fd)

    monkeypatch.setattr(journal_module.os, "fsync", counted)
    return calls


def test_rows_written_before_a_sigkill_are_kept(tmp_path: Path) -> None:
    pid = os.fork()
    if pid == 0:
        try:
            journal = ResultsJournal(tmp_path)
            for task in ("a", "b", "c"):
                journal.append(row(task))
        finally:
            os.kill(os.getpid(), signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    assert [result.task for result in read_results(tmp_path)] == ["a", "b", "c"]


def test_rows_written_together_share_one_flush_and_the_end_flushes_the_rest(
    tmp_path: Path, fsyncs: list[int]
) -> None:
    async def main() -> None:
        with contextlib.closing(ResultsJournal(tmp_path)) as journal:
            async with anyio.create_task_group() as group:
                group.start_soon(journal.keep_synced)
                for index in range(20):
                    journal.append(row(f"t{index}"))
                assert len(read_results(tmp_path)) == 20 and fsyncs == []
                await anyio.sleep(SYNC_INTERVAL_S * 3)
                assert len(fsyncs) == 1
                journal.append(row("last"))
                group.cancel_scope.cancel()
        assert len(fsyncs) == 2

    anyio.run(main)
    assert len(read_results(tmp_path)) == 21


def test_a_lone_row_is_flushed_within_the_interval(tmp_path: Path, fsyncs: list[int]) -> None:
    """A row with no other after it (the next run takes minutes) does not wait for the end."""

    async def main() -> None:
        with contextlib.closing(ResultsJournal(tmp_path)) as journal:
            async with anyio.create_task_group() as group:
                group.start_soon(journal.keep_synced)
                journal.append(row("alone"))
                await anyio.sleep(SYNC_INTERVAL_S * 3)
                assert len(fsyncs) == 1
                group.cancel_scope.cancel()
        assert len(fsyncs) == 1

    anyio.run(main)


def test_a_closed_journal_refuses_rows(tmp_path: Path) -> None:
    journal = ResultsJournal(tmp_path)
    journal.close()
    with pytest.raises(ValueError, match="closed"):
        journal.append(row("late"))
