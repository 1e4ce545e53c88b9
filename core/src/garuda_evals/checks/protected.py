"""The protected-file snapshot: tests and build files the agent must leave as they were."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from garuda_evals.judging.files import kind, read_regular

IGNORED_PARTS = frozenset({".git", "node_modules", "__pycache__", ".garuda-check", "target"})
SNAPSHOT_FILE_LIMIT = 64 * 1024 * 1024


class ProtectedPatterns:
    """Patterns read once, for many paths: exact paths and names are looked up in sets (a
    repo task protects every test file of its tree, thousands in a large project)."""

    def __init__(self, patterns: Iterable[str]) -> None:
        self.paths: set[str] = set()
        self.names: set[str] = set()
        self.folders: list[list[str]] = []
        for pattern in patterns:
            if pattern.endswith("/"):
                self.folders.append(pattern.rstrip("/").split("/"))
            else:
                self.paths.add(pattern)
                if "/" not in pattern:
                    self.names.add(pattern)

    def __contains__(self, relative: str) -> bool:
        parts = relative.split("/")
        if relative in self.paths or parts[-1] in self.names:
            return True
        for folder in self.folders:
            for start in range(len(parts) - len(folder)):
                if parts[start : start + len(folder)] == folder:
                    return True
        return False


def is_protected(relative: str, patterns: Iterable[str]) -> bool:
    """A pattern ending in ``/`` protects a folder (at any depth), else one file path or name."""
    return relative in ProtectedPatterns(patterns)


def _walk(root: Path) -> Iterable[tuple[str, os.stat_result]]:
    """Every entry below ``root`` (links and ignored folders not entered), with its lstat."""
    pending = [(root, "")]
    while pending:
        folder, prefix = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            relative = f"{prefix}{entry.name}"
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISDIR(info.st_mode):
                if entry.name not in IGNORED_PARTS:
                    pending.append((Path(entry.path), f"{relative}/"))
                continue
            yield relative, info


def digest(path: Path, mode: int) -> str:
    """sha256 of a regular file; a link, FIFO or device is described, never opened."""
    if not stat.S_ISREG(mode):
        return f"({kind(mode)})"
    data = read_regular(path, SNAPSHOT_FILE_LIMIT)
    return hashlib.sha256(data).hexdigest() if data is not None else "(unreadable)"


def snapshot(workspace: Path, patterns: Iterable[str]) -> dict[str, str]:
    """``relative path -> sha256`` of every protected file in ``workspace``.

    Links, FIFOs and devices at protected paths are recorded by kind, never followed or read.
    """
    matcher = ProtectedPatterns(patterns)
    return {
        relative: digest(workspace / relative, info.st_mode)
        for relative, info in _walk(workspace)
        if relative in matcher
    }


def changes(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """Lines like ``changed tests/test_a.py``, ``deleted ...``, ``added ...``, sorted."""
    found = [f"deleted {p}" for p in before if p not in after]
    found += [f"added {p}" for p in after if p not in before]
    found += [f"changed {p}" for p in before if p in after and before[p] != after[p]]
    return sorted(found, key=lambda line: line.split(" ", 1)[1])
