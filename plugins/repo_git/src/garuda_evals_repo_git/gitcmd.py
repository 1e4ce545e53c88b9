"""Read-only git plumbing on the user's repository: nothing here touches its index or checkout."""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from garuda_evals.api import GarudaError

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


def git(root: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """Run ``git -C root args`` and return its stdout; a failure is a GarudaError."""
    result = subprocess.run(
        ["git", "-C", str(root), *args],
        capture_output=True,
        env={**os.environ, **(env or {})},
        check=False,
    )
    if result.returncode != 0:
        message = result.stderr.decode("utf-8", "replace").strip()
        raise GarudaError(f"git {' '.join(args[:2])} failed: {message}")
    return result.stdout.decode("utf-8", "replace")


def git_root(cwd: Path) -> Path:
    """The top folder of the git checkout that holds ``cwd``."""
    result = subprocess.run(
        ["git", "-C", str(cwd), "rev-parse", "--show-toplevel"], capture_output=True, check=False
    )
    if result.returncode != 0:
        raise GarudaError(f"{cwd} is not inside a git repository")
    return Path(result.stdout.decode().strip()).resolve()


def git_dir(root: Path) -> Path:
    """The repository's shared git folder (``.git``, or the main one for a worktree)."""
    return Path(git(root, "rev-parse", "--path-format=absolute", "--git-common-dir").strip())


def head(root: Path) -> str:
    """The full hash of HEAD; a repository with no commit yet is a GarudaError."""
    if not commit_exists(root, "HEAD"):
        raise GarudaError(f"{root} has no commit yet: there is no history to mine")
    return git(root, "rev-parse", "HEAD").strip()


def commit_exists(root: Path, sha: str) -> bool:
    """Whether ``sha`` names a commit of this repository."""
    result = subprocess.run(
        ["git", "-C", str(root), "cat-file", "-e", f"{sha}^{{commit}}"],
        capture_output=True,
        check=False,
    )
    return result.returncode == 0


@dataclass(frozen=True)
class Commit:
    """A commit as the miner reads it. ``parent`` is None for a root commit."""

    sha: str
    parent: str | None
    subject: str
    message: str


def recent_commits(root: Path, count: int, since: str | None, skip: int = 0) -> list[Commit]:
    """The newest ``count`` commits of HEAD after the newest ``skip`` (newest first), merges
    not read."""
    args = ["log", "--no-merges", f"--max-count={count}", "--format=%H%x00%P%x00%s%x00%B%x1e"]
    if skip:
        args.append(f"--skip={skip}")
    if since:
        args.append(f"--since={since}")
    commits: list[Commit] = []
    for record in git(root, *args, "HEAD").split("\x1e"):
        record = record.strip("\n")
        if not record:
            continue
        sha, parents, subject, body = record.split("\x00", 3)
        parent = parents.split()[0] if parents.strip() else None
        commits.append(Commit(sha, parent, subject, body.strip()))
    return commits


@dataclass(frozen=True)
class Change:
    """One changed path: ``status`` is A, M or D (renames are a delete and an add)."""

    status: str
    path: str
    binary: bool


def changes(root: Path, parent: str | None, sha: str) -> list[Change]:
    """The paths a commit changes against its parent (or the empty tree)."""
    base = parent or EMPTY_TREE
    status = git(root, "diff-tree", "-r", "--no-renames", "-z", "--name-status", base, sha)
    numstat = git(root, "diff-tree", "-r", "--no-renames", "-z", "--numstat", base, sha)
    binary: set[str] = set()
    for entry in numstat.split("\x00"):
        parts = entry.split("\t")
        if len(parts) == 3 and parts[0] == "-" and parts[1] == "-":
            binary.add(parts[2])
    fields = [f for f in status.split("\x00") if f]
    pairs = zip(fields[0::2], fields[1::2], strict=False)
    return [Change(kind[0], path, path in binary) for kind, path in pairs]


def file_sizes(root: Path, sha: str) -> dict[str, int]:
    """Each file of the tree of ``sha`` with its size in bytes (one ``git ls-tree``)."""
    sizes: dict[str, int] = {}
    for entry in git(root, "ls-tree", "-r", "-l", "-z", sha).split("\x00"):
        info, _, path = entry.partition("\t")
        parts = info.split()
        if len(parts) == 4 and parts[1] == "blob" and parts[3].isdigit():
            sizes[path] = int(parts[3])
    return sizes


def read_text(root: Path, sha: str, path: str) -> str | None:
    """The UTF-8 text of ``path`` at ``sha``; None when absent or not text."""
    result = subprocess.run(
        ["git", "-C", str(root), "show", f"{sha}:{path}"], capture_output=True, check=False
    )
    if result.returncode != 0:
        return None
    try:
        return result.stdout.decode("utf-8")
    except UnicodeDecodeError:
        return None


def export_tree(root: Path, sha: str, target: Path) -> None:
    """Write the tree of ``sha`` into ``target`` through a temporary index file.

    ``GIT_INDEX_FILE`` points at a throwaway file, so the user's index, HEAD and checkout are
    never read for writing: ``read-tree`` fills the temporary index, ``checkout-index`` writes
    the files under ``target``.
    """
    target = target.resolve()
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="garuda-index-") as scratch:
        env = {"GIT_INDEX_FILE": str(Path(scratch) / "index")}
        git(root, "read-tree", sha, env=env)
        git(root, "checkout-index", "-a", "-f", f"--prefix={target}/", env=env)
