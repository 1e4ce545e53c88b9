"""The agent's final change, kept as a git binary diff with full index hashes.

A private git folder (never the agent's) snapshots the task's folder before the agent runs
and again after; ``git diff --binary --full-index`` between the two trees is the change.
The snapshots' objects are written without starting git (``git_tree``) unless the folder
holds something only git should decide about.
Binary files are carried exactly, deletions, modes and links too, and ``git apply`` checks
each file's starting hash, so a rebuilt folder is the agent's folder or an error. The
folders the judge never carries (``judging.change.SKIPPED_DIRS``) and bytecode are left out;
the agent's own ``.gitignore`` files cannot hide anything (files are added with ``--force``)
and its ``.gitattributes`` cannot convert anything (see ``NEUTRAL_ATTRIBUTES``).
"""

from __future__ import annotations

import functools
import hashlib
import os
import secrets
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Any

import anyio

from garuda_evals.judging.change import SKIPPED_DIRS, SKIPPED_SUFFIXES
from garuda_evals.runner.git_tree import write_tree

CHANGES_DIR = "changes"
GIT_TIMEOUT_S = 120.0
EXCLUDES = (
    *(f":(exclude,glob)**/{name}/**" for name in sorted(SKIPPED_DIRS - {".git"})),
    *(f":(exclude,glob)**/*{suffix}" for suffix in SKIPPED_SUFFIXES),
)
GIT_OPTIONS = (
    "-c",
    "core.autocrlf=false",
    "-c",
    "core.symlinks=true",
    "-c",
    "core.fileMode=true",
    "-c",
    "core.quotePath=false",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.hooksPath=/dev/null",
)


NEUTRAL_ATTRIBUTES = "* -text -filter -ident -working-tree-encoding !eol !diff\n"
"""``info/attributes`` outranks the folder's own ``.gitattributes``: no conversion touches
the bytes an agent wrote (a CRLF, an ``$Id$``), so the diff rebuilds them exactly."""


def _bare_layout(git_dir: Path) -> None:
    """The least git needs to take ``git_dir`` for a repository, written here: ``git init``
    would cost a process and copy its template (sample hooks) only to be removed again."""
    for folder in ("objects", "refs", "info"):
        (git_dir / folder).mkdir(exist_ok=True)
    (git_dir / "HEAD").write_text("ref: refs/heads/snapshots\n")
    (git_dir / "info" / "attributes").write_text(NEUTRAL_ATTRIBUTES)


class ChangeError(Exception):
    """Git could not snapshot, diff or apply a change."""


def _env(git_dir: Path, work_tree: Path, index: Path) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(git_dir),
        "GIT_DIR": str(git_dir),
        "GIT_WORK_TREE": str(work_tree),
        "GIT_INDEX_FILE": str(index),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "LC_ALL": "C",
    }


@functools.lru_cache(maxsize=4)
def _which_git(path: str | None) -> str | None:
    """``git`` on ``path``, looked up once per PATH in a process (each run asks twice)."""
    return shutil.which("git", path=path)


async def _git(args: list[str], env: dict[str, str], cwd: Path) -> bytes:
    git = _which_git(os.environ.get("PATH"))
    if git is None:
        raise ChangeError("git is not installed")
    with anyio.fail_after(GIT_TIMEOUT_S):
        done = await anyio.run_process([git, *GIT_OPTIONS, *args], env=env, cwd=cwd, check=False)
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ChangeError(f"git {args[0]}: {message[-1] if message else done.returncode}")
    return done.stdout


MEMO_TREES = 4096
MEMO_DIFFS = 64
MEMO_DIFF_BYTES = 64 * 1024


def _encoded(path: str) -> bytes:
    return path.encode("utf-8", "surrogateescape") + b"\0"


def _file_digest(path: str) -> bytes:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.digest()


def folder_digest(folder: Path) -> str | None:
    """A digest of all that a snapshot of ``folder`` records and more: every path with its
    kind, a file's content and executable bits, a link's target (the folders and suffixes
    that snapshots leave out are left out). Equal digests mean equal snapshot trees.

    None when the folder holds a ``.git`` anywhere (a nested repository's entry depends on
    its own history) or cannot be read: then only git says what the tree is.
    """
    digest = hashlib.sha256()
    folders = [""]
    try:
        while folders:
            relative = folders.pop()
            with os.scandir(folder / relative) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
            for entry in entries:
                if entry.name == ".git":
                    return None
                path = f"{relative}/{entry.name}" if relative else entry.name
                mode = entry.stat(follow_symlinks=False).st_mode
                if stat.S_ISDIR(mode):
                    if entry.name not in SKIPPED_DIRS:
                        digest.update(b"d" + _encoded(path))
                        folders.append(path)
                elif stat.S_ISLNK(mode):
                    target = os.fsencode(os.readlink(entry.path))
                    digest.update(b"l" + _encoded(path) + target + b"\0")
                elif stat.S_ISREG(mode):
                    if not path.endswith(SKIPPED_SUFFIXES):
                        executable = b"x" if mode & 0o111 else b"-"
                        digest.update(b"f" + executable + _encoded(path))
                        digest.update(_file_digest(entry.path))
                else:
                    digest.update(b"o" + _encoded(path) + str(stat.S_IFMT(mode)).encode())
    except OSError:
        return None
    return digest.hexdigest()


def _remember(memo: dict[Any, Any], key: object, value: object, limit: int) -> None:
    memo[key] = value
    while len(memo) > limit:
        memo.pop(next(iter(memo)))


class ChangeStore:
    """One private git folder for the snapshots of many runs of one process (a session).

    Runs share its objects (a task's files are stored once however often it repeats) and
    each keeps its own index; the folder is made on first use and removed once, by
    ``close``, rather than made and removed per run. Git writes objects atomically, so
    runs at the same time may share it. Outside the process that made it (a copy sent to
    another process) it gives no folder, and recorders there use their own.
    """

    def __init__(self) -> None:
        self._pid = os.getpid()
        self._folder: Path | None = None
        self.trees: dict[str, str] = {}
        """Tree id by ``folder_digest`` of the folders left to git (``write_tree`` gives
        the others' trees from their content at once): one seen before is not given to git
        again."""
        self.diffs: dict[tuple[str, str], bytes] = {}
        """Small diffs by their two trees (trees name their content, so this is exact)."""

    def folder(self) -> Path | None:
        """The shared git folder, made now if needed; None outside the making process."""
        if os.getpid() != self._pid:
            return None
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="garuda-change-"))
            _bare_layout(self._folder)
        return self._folder

    def close(self) -> None:
        """Remove the shared folder (every recorder using it is done)."""
        if self._folder is not None and os.getpid() == self._pid:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None


class ChangeRecorder:
    """Snapshots of one folder in a private git folder; ``diff`` gives the change between them.

    With a ``store`` its objects go to the store's shared folder and only its own index is
    removed by ``close``; without one it has a folder of its own.
    """

    def __init__(self, store: ChangeStore | None = None) -> None:
        shared = store.folder() if store is not None else None
        self._owned = shared is None
        self._store = None if shared is None else store
        self.git_dir = shared or Path(tempfile.mkdtemp(prefix="garuda-change-"))
        self._index = self.git_dir / f"index-{secrets.token_hex(8)}"
        self._initialized = not self._owned

    async def snapshot(self, folder: Path) -> str:
        """The git tree of ``folder`` as it is now (skipped folders and bytecode left out)."""
        if _which_git(os.environ.get("PATH")) is None:
            raise ChangeError("git is not installed")  # the diff needs it, say so now
        if not self._initialized:
            _bare_layout(self.git_dir)
            self._initialized = True
        tree = await anyio.to_thread.run_sync(write_tree, self.git_dir, folder)
        return tree if tree is not None else await self._git_tree(folder)

    async def _git_tree(self, folder: Path) -> str:
        """The tree as git itself writes it (what ``write_tree`` leaves to git); a folder
        seen before in the store is not given to git again."""
        digest = folder_digest(folder) if self._store is not None else None
        if self._store is not None and digest in self._store.trees:
            return self._store.trees[digest]
        env = _env(self.git_dir, folder, self._index)
        self._index.unlink(missing_ok=True)
        await _git(["add", "--all", "--force", "--", ".", *EXCLUDES], env, folder)
        tree = (await _git(["write-tree"], env, folder)).decode().strip()
        # Remembered only when the folder did not change while git read it.
        if self._store is not None and digest is not None and folder_digest(folder) == digest:
            _remember(self._store.trees, digest, tree, MEMO_TREES)
        return tree

    async def diff(self, before: str, after: str, folder: Path) -> bytes:
        """The binary-safe diff from tree ``before`` to tree ``after`` (empty when equal,
        without asking git)."""
        if before == after:
            return b""
        if self._store is not None and (before, after) in self._store.diffs:
            return self._store.diffs[(before, after)]
        env = _env(self.git_dir, folder, self._index)
        args = ["diff", "--binary", "--full-index", "--no-renames", "--no-ext-diff"]
        patch = await _git([*args, "--no-textconv", before, after], env, folder)
        if self._store is not None and len(patch) <= MEMO_DIFF_BYTES:
            _remember(self._store.diffs, (before, after), patch, MEMO_DIFFS)
        return patch

    def close(self) -> None:
        """Remove this recorder's index, and its git folder when it has its own."""
        if self._owned:
            shutil.rmtree(self.git_dir, ignore_errors=True)
        else:
            self._index.unlink(missing_ok=True)


async def apply_stored_change(patch: Path, folder: Path) -> None:
    """Apply a stored change to a fresh copy of its task; raise ChangeError when it does not fit."""
    if patch.stat().st_size == 0:
        return
    scratch = Path(tempfile.mkdtemp(prefix="garuda-apply-"))
    try:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(scratch),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_CEILING_DIRECTORIES": str(folder.parent),
            "GIT_DIR": str(scratch / "none.git"),
            "LC_ALL": "C",
        }
        await _git(["init", "--quiet", "--bare", str(scratch / "none.git")], env, scratch)
        (scratch / "none.git" / "info").mkdir(exist_ok=True)
        (scratch / "none.git" / "info" / "attributes").write_text(NEUTRAL_ATTRIBUTES)
        await _git(["apply", "--binary", "--whitespace=nowarn", str(patch.resolve())], env, folder)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
