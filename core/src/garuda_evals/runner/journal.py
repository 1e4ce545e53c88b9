"""A run written as it goes: ``run.json`` (what is run, with which versions) at the start,
then ``results.jsonl``, one line per finished run, written whole as the run ends.

A SIGKILL loses at most the runs in flight (a written line is the kernel's to keep); the
file is flushed to disk (fsync) at most ``SYNC_INTERVAL_S`` after a line is written, off the
event loop, and when the run ends, so a power cut loses at most that much more.
``--resume`` and report.json read the same file. A torn last line (a crash in the middle of
a write) is ignored.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path

import anyio
from pydantic import Field, ValidationError

from garuda_evals.errors import UsageError, describe_validation_error
from garuda_evals.models.base import Model
from garuda_evals.models.result import Status, TaskResult
from garuda_evals.models.settings import RunSettings
from garuda_evals.runner.selection import Selected

RESULTS_FILE = "results.jsonl"
MANIFEST_FILE = "run.json"
SYNC_INTERVAL_S = 0.25


class RunManifest(Model):
    """What a run is: enough to resume it and to refuse a resume that would mix setups."""

    run_id: str
    started: float
    settings: RunSettings
    agent: dict[str, str]
    versions: dict[str, str]
    suites: dict[str, str] = Field(default_factory=dict)
    """Suite name -> fingerprint of the selected tasks' definitions."""
    jobs: list[str] = Field(default_factory=list)


def job_key(suite: str, task: str, repeat: int) -> str:
    """``suite/task#repeat``: one run of one task."""
    return f"{suite}/{task}#{repeat}"


def result_key(result: TaskResult) -> str:
    """The job key of a result row."""
    return job_key(result.suite, result.task, result.repeat)


def suite_fingerprints(selected: list[Selected]) -> dict[str, str]:
    """Per suite, a sha256 over the selected tasks' definitions (files, check, protected)."""
    tasks: dict[str, list[str]] = {}
    for item in selected:
        data = item.task.model_dump(mode="json", exclude={"source"})
        tasks.setdefault(item.task.suite, []).append(json.dumps(data, sort_keys=True))
    return {
        suite: hashlib.sha256("\n".join(sorted(texts)).encode()).hexdigest()[:16]
        for suite, texts in sorted(tasks.items())
    }


def _write_synced(path: Path, data: bytes, mode: str) -> None:
    with path.open(mode) as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def write_manifest(manifest: RunManifest, run_dir: Path) -> None:
    """Write ``run.json`` atomically and durably."""
    partial = run_dir / (MANIFEST_FILE + ".tmp")
    _write_synced(partial, json.dumps(manifest.to_json_dict(), indent=2).encode(), "wb")
    partial.replace(run_dir / MANIFEST_FILE)
    _sync_folder(run_dir)


def read_manifest(run_dir: Path) -> RunManifest:
    """``run.json`` of a run folder; a missing or broken one is a one-line UsageError."""
    path = run_dir / MANIFEST_FILE
    if not path.is_file():
        raise UsageError(f"{path}: not found (was this run made by a garuda that writes it?)")
    try:
        return RunManifest.model_validate_json(path.read_bytes())
    except ValidationError as error:
        raise UsageError(describe_validation_error(str(path), error)) from error


def _drop_torn_tail(path: Path) -> None:
    """Cut a last line a crash left unfinished (every finished line ends with a newline)."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return
    if size == 0:
        return
    with path.open("rb+") as handle:
        handle.seek(size - 1)
        if handle.read(1) == b"\n":
            return
        handle.seek(0)
        data = handle.read()
        handle.truncate(data.rfind(b"\n") + 1)


class ResultsJournal:
    """``results.jsonl`` of one run, open while it goes on.

    ``append`` writes a row whole, with one ``write``, at once; ``keep_synced`` (a task
    beside the runs) flushes the file to disk in a worker thread at most ``SYNC_INTERVAL_S``
    after a row was written, one flush for all the rows written meanwhile; ``close`` flushes
    what is left. A torn last line left by an earlier crash is cut when the file is opened.
    """

    def __init__(self, run_dir: Path) -> None:
        path = run_dir / RESULTS_FILE
        created = not path.exists()
        _drop_torn_tail(path)
        self._fd: int | None = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._unsynced = False
        if created:
            _sync_folder(run_dir)

    def append(self, result: TaskResult) -> None:
        """Write one result as a JSON line (flushed to disk by ``keep_synced`` or ``close``)."""
        if self._fd is None:
            raise ValueError("the results journal is closed")
        line = json.dumps(result.to_json_dict(), ensure_ascii=False) + "\n"
        data = memoryview(line.encode("utf-8"))
        while data:
            data = data[os.write(self._fd, data) :]
        self._unsynced = True

    def sync(self) -> None:
        """Flush the rows written so far to disk."""
        if self._fd is not None and self._unsynced:
            self._unsynced = False
            os.fsync(self._fd)

    async def keep_synced(self) -> None:
        """Until cancelled: every ``SYNC_INTERVAL_S``, flush new rows, off the event loop."""
        while self._fd is not None:
            await anyio.sleep(SYNC_INTERVAL_S)
            if self._unsynced:
                await anyio.to_thread.run_sync(self.sync)

    def close(self) -> None:
        """Flush what is left and close the file."""
        if self._fd is not None:
            try:
                self.sync()
            finally:
                os.close(self._fd)
                self._fd = None


def append_result(run_dir: Path, result: TaskResult) -> None:
    """Append one result as a JSON line and flush it to disk."""
    with contextlib.closing(ResultsJournal(run_dir)) as journal:
        journal.append(result)


def _sync_folder(folder: Path) -> None:
    """Make a new file's name durable too (its folder's entry), where the OS allows it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_results(run_dir: Path) -> list[TaskResult]:
    """Every row of ``results.jsonl`` in the order written (none when there is no file)."""
    path = run_dir / RESULTS_FILE
    if not path.is_file():
        return []
    lines = path.read_bytes().split(b"\n")
    rows: list[TaskResult] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rows.append(TaskResult.model_validate_json(line))
        except ValidationError as error:
            if number >= len(lines) - 1:
                break  # torn by a crash during the last write
            why = error.errors()[0]["msg"]
            raise UsageError(f"{path}:{number}: not a result line ({why})") from error
    return rows


def latest(rows: list[TaskResult]) -> tuple[dict[str, TaskResult], list[TaskResult]]:
    """The last row per job, and the earlier rows it replaced (an INT before a resume, an
    ERR before a retry)."""
    current: dict[str, TaskResult] = {}
    replaced: list[TaskResult] = []
    for row in rows:
        key = result_key(row)
        if key in current:
            replaced.append(current[key])
        current[key] = row
    return current, replaced


def still_to_run(current: dict[str, TaskResult], retry_errors: bool) -> set[str]:
    """Job keys whose last row does not count as done: INT always, ERR with ``retry_errors``."""
    redo = {Status.INTERRUPTED, *((Status.ERR,) if retry_errors else ())}
    return {key for key, row in current.items() if row.status in redo}
