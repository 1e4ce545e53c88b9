"""The suite contract: tasks, and how a task's workspace is made and removed."""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from garuda_evals.executors.base import SandboxPolicy
    from garuda_evals.models.settings import RunSettings
    from garuda_evals.models.task import Task


def write_files(root: Path, files: dict[str, str]) -> None:
    """Write ``path -> text`` files under ``root``."""
    made: set[Path] = set()
    for relative, content in files.items():
        target = root / relative
        if target.parent not in made:
            target.parent.mkdir(parents=True, exist_ok=True)
            made.add(target.parent)
        target.write_text(content, encoding="utf-8")


class Suite(ABC):
    """A named list of tasks.

    Override ``materialize`` when a workspace is more than ``task.files`` (a repo task
    builds a fresh git repository), ``release`` to undo it, ``policy`` to widen or narrow
    what the sandbox shows, ``environment`` to set variables for the agent's commands,
    and ``check_settings`` to refuse flags (raise UsageError).
    """

    name: str
    description: str = ""

    @abstractmethod
    def tasks(self) -> list[Task]:
        """Every task of the suite, in a stable order."""

    def materialize(self, task: Task, workspace: Path) -> None:
        """Write the task's files into the empty folder ``workspace``."""
        write_files(workspace, task.files)

    def release(self, task: Task, workspace: Path) -> None:  # noqa: B027 - optional
        """Undo what ``materialize`` made outside ``workspace``. The runner removes the folder."""

    def policy(self, task: Task, base: SandboxPolicy) -> SandboxPolicy:
        """The sandbox policy for this task's commands (default: unchanged)."""
        return base

    def environment(self, task: Task, workspace: Path) -> dict[str, str]:
        """Variables added to the environment of the agent's commands (default: none).

        The check does not get them: a check command sets what it needs itself.
        """
        return {}

    def check_settings(self, settings: RunSettings) -> None:  # noqa: B027 - optional
        """Raise UsageError for a flag this suite cannot honour."""
