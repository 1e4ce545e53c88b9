"""Dependency folders of the checkout (node_modules, Python environments), linked into trees."""

from __future__ import annotations

import shlex
from pathlib import Path, PurePosixPath

VENV_NAMES = (".venv", "venv")


def dependency_folders(root: Path, tracked: list[str]) -> list[str]:
    """Relative paths of the checkout's node_modules (beside each package.json) and venvs."""
    found: list[str] = []
    packages = {
        str(PurePosixPath(p).parent) for p in tracked if PurePosixPath(p).name == "package.json"
    }
    for folder in sorted(packages):
        relative = "node_modules" if folder == "." else f"{folder}/node_modules"
        if (root / relative).is_dir():
            found.append(relative)
    found.extend(name for name in VENV_NAMES if (root / name / "bin").is_dir())
    return found


def link_dependencies(root: Path, tree: Path, folders: list[str]) -> list[Path]:
    """Symlink each folder of the checkout into ``tree`` (unless the tree has it); return targets."""
    linked: list[Path] = []
    for relative in folders:
        link = tree / relative
        if link.exists() or link.is_symlink():
            continue
        link.parent.mkdir(parents=True, exist_ok=True)
        target = (root / relative).resolve()
        link.symlink_to(target, target_is_directory=True)
        linked.append(target)
    return linked


def tracked_files(root: Path, sha: str) -> list[str]:
    """Every path in the tree of ``sha``."""
    from garuda_evals_repo_git.gitcmd import git

    return [p for p in git(root, "ls-tree", "-r", "-z", "--name-only", sha).split("\x00") if p]


def link_guard(root: Path, folders: list[str]) -> str:
    """A shell test that each dependency link still points at the checkout's folder.

    The protected snapshot does not look inside node_modules; without this, an agent could
    swap the link for a folder holding a fake runner or a fake test library.
    """
    tests = []
    for rel in folders:
        target = shlex.quote(str((root / rel).resolve()))
        message = shlex.quote(f"garuda: the dependency link {rel} was changed")
        tests.append(
            f'test "$(readlink {shlex.quote(rel)})" = {target} || {{ echo {message}; exit 1; }};'
        )
    return " ".join(tests)
