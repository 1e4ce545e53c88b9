"""Live events of a run, for the terminal and for lifecycle hooks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

EventKind = Literal["start", "tool", "retry", "notice", "done", "info"]


@dataclass(frozen=True)
class RunEvent:
    """One live line: ``[task#repeat] message``."""

    kind: EventKind
    task: str
    repeat: int
    message: str


@dataclass(frozen=True)
class RunStarted:
    """Passed to ``garuda_run_started``."""

    run_id: str
    total: int
    run_dir: str
    executor: str
    agent: str
