"""The check-runner contract: render the check command, then read the runner's evidence."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path

from garuda_evals.executors.base import CommandResult


@dataclass(frozen=True)
class TestEvidence:
    """What the test runner's own report says. ``tests_ran`` None: no report was found."""

    __test__ = False

    tests_ran: int | None
    failed: int = 0
    detail: str = ""


@dataclass(frozen=True)
class CheckPlan:
    """The command to run and where the evidence will be."""

    command: str
    evidence_paths: tuple[Path, ...] = field(default_factory=tuple)


class CheckRunner(ABC):
    """Adapts one test runner (pytest, node --test, Surefire, ...).

    ``plan`` runs after the agent's turn and before the check: it may remove stale reports
    and must choose report paths the agent could not have prepared.
    """

    name: str

    @abstractmethod
    def plan(self, command: str, workspace: Path) -> CheckPlan:
        """The command to run (placeholders filled) and where its evidence will be."""

    @abstractmethod
    def evidence(self, plan: CheckPlan, workspace: Path, result: CommandResult) -> TestEvidence:
        """Read the runner's report after the check ran."""

    def failure_summary(self, result: CommandResult) -> str:
        """One line saying why a check that exited non-zero failed (default: its last line).

        Override it when the runner's last line says nothing (Maven ends with help links).
        """
        last = result.output.strip().splitlines()[-1:] or [""]
        return last[0]
