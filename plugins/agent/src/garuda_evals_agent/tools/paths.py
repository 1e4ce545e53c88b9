"""Keep every path the model names inside the workspace (symlinks included)."""

from __future__ import annotations

import os
from pathlib import Path

SKIPPED_DIRS = frozenset(
    {".git", "node_modules", "__pycache__", ".venv", "target", ".pytest_cache"}
)


class ToolError(Exception):
    """A tool call that cannot be done; the message goes back to the model as an error."""


def inside(workspace: Path, name: str) -> Path:
    """``name`` resolved against ``workspace``; a path that leaves it is a ToolError."""
    if not isinstance(name, str) or not name.strip():
        raise ToolError("path must be a non-empty string")
    root = workspace.resolve()
    candidate = Path(name)
    target = (candidate if candidate.is_absolute() else root / candidate).resolve()
    if target != root and not target.is_relative_to(root):
        raise ToolError(f"{name}: outside the workspace (only paths under {root} may be used)")
    return target


def relative(workspace: Path, path: Path) -> str:
    """``path`` relative to the workspace, in POSIX form (``.`` for the root)."""
    return path.relative_to(workspace.resolve()).as_posix() or "."


def walk(root: Path, limit: int = 5000) -> list[Path]:
    """Files below ``root`` (at most ``limit``), sorted, skipping VCS, dependency and caches.

    Folders are visited in ``os.walk``'s order, but from a list rather than by recursion
    (which, on Python 3.11, a tree a thousand folders deep would exhaust)."""
    found: list[Path] = []
    pending = [root]
    while pending and len(found) < limit:
        folder = pending.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            continue
        found.extend(Path(entry.path) for entry in entries if not entry.is_dir())
        dirs = [
            Path(entry.path)
            for entry in entries
            if entry.is_dir(follow_symlinks=False) and entry.name not in SKIPPED_DIRS
        ]
        pending.extend(reversed(dirs))
    return sorted(found[:limit])
