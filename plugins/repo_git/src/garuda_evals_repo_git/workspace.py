"""A repo task's workspace: a fresh git repository that holds the parent's tree and nothing newer.

No worktree of the user's repository, no alternates, no remote: the workspace's ``.git`` is
made by ``git init`` and filled by hashing the parent's files again, so ``git log --all`` shows
one commit and no object of the task's commit (or any later one) exists in it.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from garuda_evals_repo_git.deps import link_dependencies
from garuda_evals_repo_git.gitcmd import export_tree
from garuda_evals_repo_git.suitefile import RepoTask

START_MESSAGE = "Task start"
_IDENTITY = (
    "-c",
    "user.name=garuda-evals",
    "-c",
    "user.email=evals@localhost",
    "-c",
    "commit.gpgsign=false",
)


def _git(workspace: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(workspace), *_IDENTITY, *args], check=True, capture_output=True
    )


def build_workspace(
    root: Path, saved: RepoTask, workspace: Path, dependencies: list[str]
) -> list[Path]:
    """Fill the empty ``workspace``; return the real paths of the linked dependency folders."""
    export_tree(root, saved.parent, workspace)
    _git(workspace, "init", "-q", "--template=", "-b", "main")
    _git(workspace, "add", "-A", "-f", ".")
    _git(workspace, "commit", "-q", "--no-verify", "--allow-empty", "-m", START_MESSAGE)
    for relative, content in saved.test_files.items():
        path = workspace / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    for relative in saved.deleted_tests:
        (workspace / relative).unlink(missing_ok=True)
    return link_dependencies(root, workspace, dependencies)
