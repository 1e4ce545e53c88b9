"""The agent's final change, kept as a git binary diff with full index hashes.

A private git folder (never the agent's) snapshots the task's folder before the agent runs
and again after; ``git diff --binary --full-index`` between the two trees is the change.
Binary files are carried exactly, deletions, modes and links too, and ``git apply`` checks
each file's starting hash, so a rebuilt folder is the agent's folder or an error. The
folders the judge never carries (``judging.change.SKIPPED_DIRS``) and bytecode are left out;
the agent's own ``.gitignore`` files cannot hide anything (files are added with ``--force``)
and its ``.gitattributes`` cannot convert anything (see ``NEUTRAL_ATTRIBUTES``).
"""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
from pathlib import Path

import anyio

from garuda_evals.judging.change import SKIPPED_DIRS, SKIPPED_SUFFIXES

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


async def _git(args: list[str], env: dict[str, str], cwd: Path) -> bytes:
    git = shutil.which("git")
    if git is None:
        raise ChangeError("git is not installed")
    with anyio.fail_after(GIT_TIMEOUT_S):
        done = await anyio.run_process([git, *GIT_OPTIONS, *args], env=env, cwd=cwd, check=False)
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ChangeError(f"git {args[0]}: {message[-1] if message else done.returncode}")
    return done.stdout


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
        self.git_dir = shared or Path(tempfile.mkdtemp(prefix="garuda-change-"))
        self._index = self.git_dir / f"index-{secrets.token_hex(8)}"
        self._initialized = not self._owned

    async def snapshot(self, folder: Path) -> str:
        """The git tree of ``folder`` as it is now (skipped folders and bytecode left out)."""
        env = _env(self.git_dir, folder, self._index)
        if not self._initialized:
            _bare_layout(self.git_dir)
            self._initialized = True
        self._index.unlink(missing_ok=True)
        await _git(["add", "--all", "--force", "--", ".", *EXCLUDES], env, folder)
        return (await _git(["write-tree"], env, folder)).decode().strip()

    async def diff(self, before: str, after: str, folder: Path) -> bytes:
        """The binary-safe diff from tree ``before`` to tree ``after`` (empty when equal)."""
        env = _env(self.git_dir, folder, self._index)
        args = ["diff", "--binary", "--full-index", "--no-renames", "--no-ext-diff"]
        return await _git([*args, "--no-textconv", before, after], env, folder)

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
