"""Where runs are saved: ``.garuda/evals/<run-id>/`` in the git root of the current folder."""

from __future__ import annotations

import secrets
import time
from pathlib import Path

EVALS_DIR = Path(".garuda") / "evals"


def project_root(start: Path) -> Path:
    """The nearest folder at or above ``start`` holding ``.git``; else ``start``."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return start


def hidden_project(start: Path) -> tuple[Path, ...]:
    """The user's project, for the sandbox to hide: its git history and earlier runs'
    transcripts must not reach an agent. Nothing when the project would be ``/``."""
    root = project_root(start)
    return () if root == Path(root.anchor) else (root,)


def evals_dir(start: Path) -> Path:
    """``<project root>/.garuda/evals``."""
    return project_root(start) / EVALS_DIR


def new_run_id() -> str:
    """A sortable, unique run id: ``20261130-073512-3fa9``."""
    return time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(2)


def transcript_name(task_id: str, repeat: int) -> str:
    """``<task>.jsonl`` for the first run, ``<task>-2.jsonl`` for the second repeat."""
    return f"{task_id}.jsonl" if repeat == 1 else f"{task_id}-{repeat}.jsonl"
