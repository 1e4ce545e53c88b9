"""Git work on a repository's local clone: find it, export a commit's tree, apply a patch.

Nothing here writes to the clone: a patch is applied to a throwaway index whose new
objects go to a throwaway object folder (the clone's objects are read as alternates), and a
tree is exported through a throwaway index, so the clone's index, HEAD, refs and objects
stay as they were.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from garuda_evals.api import GarudaError

GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_TERMINAL_PROMPT": "0",
    "LC_ALL": "C",
}


def git(
    repo: Path, *args: str, env: dict[str, str] | None = None, data: bytes | None = None
) -> bytes:
    """``git -C repo args`` (stdin ``data``); a failure is a GarudaError naming the command."""
    done = subprocess.run(
        ["git", "-C", str(repo), *args],
        input=data,
        capture_output=True,
        env={**os.environ, **GIT_ENV, **(env or {})},
        check=False,
    )
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GarudaError(f"git {args[0]}: {message[-1] if message else done.returncode}")
    return done.stdout


def find_clone(repos: Path, repo: str) -> Path | None:
    """The clone or mirror of ``owner/name`` under ``repos``: ``owner__name``,
    ``owner/name`` (either with ``.git``), or None."""
    owner, name = repo.split("/", 1)
    for candidate in (f"{owner}__{name}", f"{owner}/{name}"):
        for folder in (repos / candidate, repos / f"{candidate}.git"):
            if folder.is_dir():
                return folder.resolve()
    return None


def has_commit(clone: Path, sha: str) -> bool:
    """The clone holds commit ``sha``."""
    try:
        git(clone, "cat-file", "-e", f"{sha}^{{commit}}")
    except GarudaError:
        return False
    return True


def full_sha(clone: Path, sha: str) -> str:
    """The full hash of commit ``sha``."""
    return git(clone, "rev-parse", "--verify", f"{sha}^{{commit}}").decode().strip()


def export_tree(clone: Path, sha: str, target: Path) -> None:
    """Write the tree of ``sha`` into ``target`` (links and modes as git stores them)."""
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="garuda-swe-index-") as scratch:
        env = {"GIT_INDEX_FILE": str(Path(scratch) / "index")}
        git(clone, "read-tree", sha, env=env)
        git(clone, "checkout-index", "-a", "-f", f"--prefix={target.resolve()}/", env=env)


@dataclass
class Patched:
    """A patch applied to a commit: the text of each added or changed file, the deleted
    files, and the changed files that are not UTF-8 text."""

    files: dict[str, str] = field(default_factory=dict)
    deleted: list[str] = field(default_factory=list)
    binary: list[str] = field(default_factory=list)


def _objects(clone: Path) -> Path:
    common = git(clone, "rev-parse", "--git-common-dir").decode().strip()
    return (clone / common / "objects").resolve()


def apply_patch(clone: Path, sha: str, patch: str) -> Patched:
    """The files of ``patch`` applied to commit ``sha``; a patch that does not apply is a
    GarudaError with git's last line."""
    with tempfile.TemporaryDirectory(prefix="garuda-swe-apply-") as scratch:
        objects = Path(scratch) / "objects"
        objects.mkdir()
        env = {
            "GIT_INDEX_FILE": str(Path(scratch) / "index"),
            "GIT_OBJECT_DIRECTORY": str(objects),
            "GIT_ALTERNATE_OBJECT_DIRECTORIES": str(_objects(clone)),
        }
        git(clone, "read-tree", sha, env=env)
        git(clone, "apply", "--cached", "--whitespace=nowarn", "-", env=env, data=patch.encode())
        listing = git(
            clone, "diff-index", "--cached", "--no-renames", "--name-status", "-z", sha, env=env
        )
        parts = [part.decode("utf-8", "surrogateescape") for part in listing.split(b"\0") if part]
        found = Patched()
        for status, path in zip(parts[::2], parts[1::2], strict=True):
            if status == "D":
                found.deleted.append(path)
                continue
            data = git(clone, "cat-file", "blob", f":{path}", env=env)
            try:
                found.files[path] = data.decode("utf-8")
            except UnicodeDecodeError:
                found.binary.append(path)
        return found
