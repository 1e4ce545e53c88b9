"""The check-runner contract: render the check command, then read the runner's evidence."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from garuda_evals.executors.base import CommandResult

if TYPE_CHECKING:
    from garuda_evals.models.task import Task

Outcome = Literal["passed", "failed", "error", "skipped"]


@dataclass(frozen=True)
class TestCase:
    """One test as the runner reported it. JUnit ids are ``classname::name``."""

    __test__ = False

    id: str
    outcome: Outcome
    message: str = ""


@dataclass(frozen=True)
class TestEvidence:
    """What the test runner's own report says. ``tests_ran`` None: no report was found."""

    __test__ = False

    tests_ran: int | None
    failed: int = 0
    detail: str = ""
    cases: tuple[TestCase, ...] = ()
    skipped: int = 0


@dataclass(frozen=True)
class CheckPlan:
    """The command to run, where the evidence will be, and files to keep read-only.

    ``locked`` files (inside the workspace) join the protected ones: read-only during the
    check (for example a ``__pycache__`` file that stops Python caching bytecode beside the
    tests, where code under test could plant some).
    """

    command: str
    evidence_paths: tuple[Path, ...] = field(default_factory=tuple)
    locked: tuple[Path, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Canaries:
    """Tests the judge adds to every check: one must fail (with the nonce), one must pass.

    ``files`` (relative path -> text) are written into the judge's folder and made
    read-only; ``{canaries}`` in the check command becomes the quoted ``args``.
    """

    files: Mapping[str, str]
    must_fail: str
    must_pass: str
    args: tuple[str, ...] = ()


@dataclass(frozen=True)
class HeldOutRun:
    """A task's held-out tests and their canaries as one judge writes them.

    ``files`` (relative path -> text) are written into the judge's folder and made
    read-only. ``must_pass`` and ``must_fail`` map each test's id in this run's report to
    the name the task gives it (``<file>::<test>``, for reasons a person reads): the
    held-out tests, and the canaries shaped like them. ``{canaries}`` in the check command
    also gets ``args``.
    """

    files: Mapping[str, str]
    must_pass: Mapping[str, str]
    must_fail: Mapping[str, str]
    args: tuple[str, ...] = ()


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
        """Read the runner's report after the check ran; fill ``cases`` with every test."""

    def failure_summary(self, result: CommandResult) -> str:
        """One line saying why a check that exited non-zero failed (default: its last line).

        Override it when the runner's last line says nothing (Maven ends with help links).
        """
        last = result.output.strip().splitlines()[-1:] or [""]
        return last[0]

    def canaries(self, task: Task, workspace: Path, nonce: str) -> Canaries | None:
        """Canary tests for this check, or None (default: none).

        Name and place them like the task's own tests, so code under test cannot tell them
        apart by name or place; put ``nonce`` in the must-fail test's assertion message.
        """
        return None

    def held_out(self, task: Task, workspace: Path, nonce: str) -> HeldOutRun | None:
        """The task's held-out tests and canaries (``task.held_out``) renamed for one run,
        or None when this runner cannot run them (default; a task that has them then ends
        ERR, naming the runner).

        Give every file, class and test a name drawn at random by one scheme for held-out
        tests and canaries alike, like the task's own tests: code under test must not be
        able to tell which of them must pass. Draw them from the system's randomness, never
        from ``nonce``: the canaries show it to code under test, which could redo the draw.
        """
        return None

    def forget(self, workspace: Path) -> None:
        """Drop what ``canaries`` kept for ``workspace`` (default: nothing is kept).

        The judge calls it once it is done with the folder, whatever happened: a runner
        that remembers its canaries until ``evidence`` keeps nothing from a run that
        failed or was stopped in between.
        """
        return None

    def refusals(self, task: Task, workspace: Path, changed: Sequence[str]) -> list[str]:
        """One line per changed file that would alter how the runner runs or reports.

        ``changed`` are the agent's new or modified files (relative paths) as copied into
        ``workspace``, the judge's fresh copy. Any line fails the run before the check.
        Default: nothing is refused.
        """
        return []
