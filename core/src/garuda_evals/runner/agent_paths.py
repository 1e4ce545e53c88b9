"""The paths an agent's commands are shown read-only (``Agent.read_only_paths``: the command
agent's own files) never open what the sandbox hides to keep a run honest.

The OS sandbox shows a read-only path even inside a hidden folder (the agent's script inside
the user's project), so each is refused when it lies inside, or holds, a suite's hidden
folder (a folder suite's own folder with its reference solutions, a repo suite's checkout and
git folder), the project's git folder or the run store ``.garuda/``, or when it holds the
project itself.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from garuda_evals.errors import GarudaError
from garuda_evals.executors.base import SandboxPolicy
from garuda_evals.models.task import Task
from garuda_evals.runner.paths import hidden_project
from garuda_evals.runner.selection import Selected
from garuda_evals.suites.base import Suite

RUN_STORE = ".garuda"


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _git_folders(project: Path) -> list[Path]:
    """The project's git folders: ``.git``, and for a worktree (``.git`` a file naming its
    folder) that folder and the repository's shared one."""
    dot_git = project / ".git"
    found = [dot_git]
    try:
        text = dot_git.read_text(encoding="utf-8") if dot_git.is_file() else ""
        if text.startswith("gitdir:"):
            own = project / text.removeprefix("gitdir:").strip()
            found.append(own)
            found.append(own / (own / "commondir").read_text(encoding="utf-8").strip())
    except (OSError, UnicodeDecodeError):
        pass
    return found


def suite_hidden(suite: Suite, task: Task) -> tuple[Path, ...]:
    """The folders ``suite`` hides from ``task``'s commands: its ``policy`` on an empty base
    (what it hides does not depend on the task's folder)."""
    return suite.policy(task, SandboxPolicy(workspace=Path(tempfile.gettempdir()))).hidden


def exposure(path: Path, hidden: Iterable[Path], projects: Iterable[Path]) -> str | None:
    """Why showing ``path`` would open what the sandbox hides, or None. ``hidden`` are the
    suites' hidden folders, ``projects`` the user's project folders (their ``.git`` and
    ``.garuda`` stay hidden; other files inside them may be shown)."""
    path = _real(path)
    for folder in map(_real, hidden):
        if _within(path, folder):
            return f"lies inside {folder}, which the suite hides from the agent (its solutions)"
        if _within(folder, path):
            return f"holds {folder}, which the suite hides from the agent (its solutions)"
    for project in map(_real, projects):
        if _within(project, path):
            return f"holds the project {project}, whose history the agent must not read"
        for inner in (*_git_folders(project), project / RUN_STORE):
            inner = _real(inner)
            if _within(path, inner) or _within(inner, path):
                return f"lies inside {inner}, the project's history, which the agent must not read"
    return None


def refuse_exposing(
    paths: Iterable[Path], hidden: Iterable[Path], projects: Sequence[Path]
) -> None:
    """Raise GarudaError, one line naming the first of ``paths`` that ``exposure`` refuses."""
    hidden = tuple(hidden)
    for path in paths:
        why = exposure(path, hidden, projects)
        if why is not None:
            raise GarudaError(
                f"the agent's path {path} (named in --agent-command or --agent-mount) {why}: "
                "keep the agent's files apart from it"
            )


def check_agent_paths(paths: Sequence[Path], selected: Sequence[Selected], cwd: Path) -> None:
    """Before the first task: refuse an agent path that would open a selected suite's hidden
    folders or the project's (see ``exposure``)."""
    if not paths:
        return
    hidden = [h for item in selected for h in suite_hidden(item.suite, item.task)]
    try:
        refuse_exposing(paths, dict.fromkeys(hidden), hidden_project(cwd))
    except GarudaError as error:
        raise GarudaError(f"preflight: {error}; no task was run") from None
