"""The protected-file snapshot: tests and build files the agent must leave as they were."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

IGNORED_PARTS = frozenset({".git", "node_modules", "__pycache__", ".garuda-check", "target"})


def is_protected(relative: str, patterns: Iterable[str]) -> bool:
    """A pattern ending in ``/`` protects a folder (at any depth), else one file path or name."""
    parts = relative.split("/")
    for pattern in patterns:
        if pattern.endswith("/"):
            folder = pattern.rstrip("/").split("/")
            for start in range(len(parts) - len(folder)):
                if parts[start : start + len(folder)] == folder:
                    return True
        elif relative == pattern or ("/" not in pattern and parts[-1] == pattern):
            return True
    return False


def snapshot(workspace: Path, patterns: Iterable[str]) -> dict[str, str]:
    """``relative path -> sha256`` of every protected file in ``workspace``."""
    patterns = list(patterns)
    digests: dict[str, str] = {}
    for path in workspace.rglob("*"):
        relative_parts = path.relative_to(workspace).parts
        if IGNORED_PARTS.intersection(relative_parts) or path.is_dir():
            continue
        relative = "/".join(relative_parts)
        if is_protected(relative, patterns):
            digests[relative] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digests


def changes(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """Lines like ``changed tests/test_a.py``, ``deleted ...``, ``added ...``, sorted."""
    found = [f"deleted {p}" for p in before if p not in after]
    found += [f"added {p}" for p in after if p not in before]
    found += [f"changed {p}" for p in before if p in after and before[p] != after[p]]
    return sorted(found, key=lambda line: line.split(" ", 1)[1])
