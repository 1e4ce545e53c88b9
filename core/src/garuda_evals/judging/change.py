"""Carry the agent's change into the judge's fresh copy: regular files only, nothing else.

The agent's folder is read with ``lstat`` first and regular files only (opened without
following links or blocking). Protected files come from the task, never from the agent:
a protected file the agent changed, added or deleted is reported, not copied.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from garuda_evals.checks.protected import ProtectedPatterns
from garuda_evals.judging.files import has_linked_parent, kind, lstat_or_none, read_regular

SKIPPED_DIRS = frozenset({".git", "node_modules", "__pycache__", "target", ".garuda-check"})
SKIPPED_SUFFIXES = (".pyc", ".pyo", ".class")
MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_TOTAL_BYTES = 100 * 1024 * 1024
MAX_ENTRIES = 20_000
MAX_LEFT_OUT = 50
MAX_DEPTH = 100
"""Folders nested deeper than this are not judged (each level is a frame of the walk)."""


@dataclass
class Change:
    """What was carried over, and what was not (``path: why``)."""

    copied: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    protected: list[str] = field(default_factory=list)
    copied_bytes: int = 0

    def leave_out(self, relative: str, why: str) -> None:
        """Record a path that is not judged (the first ``MAX_LEFT_OUT`` are kept)."""
        if len(self.left_out) < MAX_LEFT_OUT:
            self.left_out.append(f"{relative}: {why}")


def _same_link(agent: Path, judge: Path) -> bool:
    judge_info = lstat_or_none(judge)
    if judge_info is None or not stat.S_ISLNK(judge_info.st_mode):
        return False
    return os.readlink(agent) == os.readlink(judge)


def _regular_bytes(path: Path) -> bytes | None:
    info = lstat_or_none(path)
    if info is None or not stat.S_ISREG(info.st_mode):
        return None
    return read_regular(path, MAX_FILE_BYTES)


class _Collector:
    def __init__(self, agent: Path, judge: Path, protected: list[str]) -> None:
        self.agent, self.judge = agent, judge
        self.patterns = ProtectedPatterns(protected)
        self.change = Change()
        self.entries = 0

    def walk(self, relative_dir: str = "") -> None:
        folder = self.agent / relative_dir if relative_dir else self.agent
        if relative_dir.count("/") >= MAX_DEPTH:
            self.change.leave_out(f"{relative_dir}/", f"deeper than {MAX_DEPTH} folders")
            return
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as error:
            self.change.leave_out(relative_dir or ".", f"cannot be listed ({error.strerror})")
            return
        for entry in entries:
            self.entries += 1
            if self.entries > MAX_ENTRIES:
                self.change.leave_out(relative_dir or ".", f"more than {MAX_ENTRIES} entries")
                return
            relative = f"{relative_dir}/{entry.name}" if relative_dir else entry.name
            self.visit(relative, entry.stat(follow_symlinks=False))

    def visit(self, relative: str, info: os.stat_result) -> None:
        agent_path, judge_path = self.agent / relative, self.judge / relative
        if stat.S_ISDIR(info.st_mode):
            if relative.rsplit("/", 1)[-1] not in SKIPPED_DIRS:
                self.walk(relative)
            elif lstat_or_none(judge_path) is None:
                self.change.leave_out(
                    f"{relative}/", "build output, caches and dependencies are not judged"
                )
            return
        protected = relative in self.patterns
        if stat.S_ISLNK(info.st_mode) and _same_link(agent_path, judge_path):
            return
        if not stat.S_ISREG(info.st_mode):
            if protected:
                verb = "added" if lstat_or_none(judge_path) is None else "changed"
                self.change.protected.append(f"{verb} {relative} ({kind(info.st_mode)})")
            else:
                self.change.leave_out(relative, f"{kind(info.st_mode)}, not a regular file")
            return
        self.regular(relative, info, protected)

    def regular(self, relative: str, info: os.stat_result, protected: bool) -> None:
        judge_path = self.judge / relative
        original = _regular_bytes(judge_path)
        if relative.endswith(SKIPPED_SUFFIXES):
            if original is None:
                self.change.leave_out(relative, "bytecode and build output are not judged")
            return
        if info.st_size > MAX_FILE_BYTES:
            if protected:
                self.change.protected.append(f"changed {relative}")
            else:
                self.change.leave_out(
                    relative, f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB"
                )
            return
        data = read_regular(self.agent / relative, MAX_FILE_BYTES)
        if data is None:
            self.change.leave_out(relative, "could not be read as a regular file")
            return
        if data == original:
            return
        if protected:
            verb = "added" if lstat_or_none(judge_path) is None else "changed"
            self.change.protected.append(f"{verb} {relative}")
            return
        self.copy(relative, data)

    def copy(self, relative: str, data: bytes) -> None:
        judge_path = self.judge / relative
        if self.change.copied_bytes + len(data) > MAX_TOTAL_BYTES:
            self.change.leave_out(relative, f"past the {MAX_TOTAL_BYTES // (1024 * 1024)} MiB cap")
            return
        existing = lstat_or_none(judge_path)
        if has_linked_parent(self.judge, relative) or (
            existing is not None and not stat.S_ISREG(existing.st_mode)
        ):
            self.change.leave_out(relative, "its place in the task is not a plain file")
            return
        judge_path.parent.mkdir(parents=True, exist_ok=True)
        judge_path.write_bytes(data)
        self.change.copied.append(relative)
        self.change.copied_bytes += len(data)

    def deletions(self) -> None:
        """Files of the task that the agent removed are removed from the copy too."""
        for relative in _task_files(self.judge):
            info = lstat_or_none(self.agent / relative)
            if info is not None:
                continue
            if relative in self.patterns:
                self.change.protected.append(f"deleted {relative}")
                continue
            (self.judge / relative).unlink()
            self.change.deleted.append(relative)


def _task_files(root: Path) -> list[str]:
    """Regular files of the fresh copy outside skipped folders (links are not entered)."""
    found: list[str] = []
    pending = [(root, "")]
    while pending:
        folder, prefix = pending.pop()
        for entry in os.scandir(folder):
            relative = f"{prefix}{entry.name}"
            if entry.is_dir(follow_symlinks=False):
                if entry.name not in SKIPPED_DIRS:
                    pending.append((Path(entry.path), f"{relative}/"))
            elif entry.is_file(follow_symlinks=False):
                found.append(relative)
    return sorted(found)


def apply_change(agent: Path, judge: Path, protected: list[str]) -> Change:
    """Copy the agent's changed regular files from ``agent`` into the fresh copy ``judge``."""
    collector = _Collector(agent, judge, protected)
    collector.walk()
    collector.deletions()
    change = collector.change
    change.protected.sort(key=lambda line: line.split(" ", 1)[1])
    return change
