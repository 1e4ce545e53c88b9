"""The no-leak assertion: a task's folder holds no git object of its commit or a later one.

The objects of the commit and of every later one are those reachable from HEAD and not from
the parent (``git rev-list --objects <parent>..HEAD``); the task's folder is built as a run
builds it and every object in its ``.git`` is listed. Any shared object is a leak.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from garuda_evals.api import GarudaError
from garuda_evals_repo_git.gitcmd import git
from garuda_evals_repo_git.suitefile import RepoTask
from garuda_evals_repo_git.workspace import build_workspace


def later_objects(root: Path, parent: str, head: str) -> set[str]:
    """Every object reachable from ``head`` and not from ``parent``."""
    listing = git(root, "rev-list", "--objects", head, f"^{parent}")
    return {line.split(" ", 1)[0] for line in listing.splitlines() if line}


def folder_objects(folder: Path) -> set[str]:
    """Every object in the git repository of ``folder`` (loose and packed)."""
    result = subprocess.run(
        [
            "git",
            "-C",
            str(folder),
            "cat-file",
            "--batch-all-objects",
            "--batch-check=%(objectname)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(result.stdout.split())


def leaked(root: Path, folder: Path, parent: str, head: str) -> set[str]:
    """The objects of ``folder``'s repository that belong to the commit or a later one."""
    return folder_objects(folder) & later_objects(root, parent, head)


def assert_no_leak(root: Path, saved: RepoTask, head: str, dependencies: list[str]) -> None:
    """Build the task's folder as a run does; a GarudaError names any leaked object."""
    with tempfile.TemporaryDirectory(prefix="garuda-noleak-") as scratch:
        folder = Path(scratch) / "task"
        folder.mkdir()
        build_workspace(root, saved, folder, dependencies)
        found = leaked(root, folder, saved.parent, head)
    if found:
        raise GarudaError(
            f"task {saved.id}: its folder holds {len(found)} git object(s) of its commit or a "
            f"later one (for example {sorted(found)[0]}): the task would leak its answer"
        )
