"""Write and delete files inside a workspace without ever following a link out of it.

Every path is checked with ``check_relative`` first, then walked one folder at a time from
the workspace with ``O_NOFOLLOW`` directory descriptors: a parent folder that is a symbolic
link is refused, a link (or any other entry) at the target is replaced by a fresh regular
file rather than written through, and deletions unlink the entry itself, never what a link
points to.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import shutil
import stat
from pathlib import Path

from garuda_evals.errors import GarudaError
from garuda_evals.models.relpath import check_relative

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_NEW_FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


class UnsafePathError(GarudaError):
    """A path that would leave the workspace (outside, or through a symbolic link)."""


def _parts(relative: str) -> list[str]:
    try:
        return check_relative(relative).split("/")
    except ValueError as error:
        raise UnsafePathError(f"{relative!r}: {error}") from error


def _open_folder(parent_fd: int, name: str, shown: str, *, create: bool) -> int | None:
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=parent_fd)
    except FileNotFoundError:
        if not create:
            return None
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, dir_fd=parent_fd)
        return _open_folder(parent_fd, name, shown, create=False)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR):
            mode = os.stat(name, dir_fd=parent_fd, follow_symlinks=False).st_mode
            what = "a symbolic link" if stat.S_ISLNK(mode) else "not a folder"
            raise UnsafePathError(f"{shown}: {what}; refusing to go through it") from error
        raise


def _open_parent(workspace: Path, parts: list[str], *, create: bool) -> int | None:
    """A descriptor of the folder holding ``parts[-1]``; None when it does not exist."""
    fd = os.open(workspace, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    for depth, name in enumerate(parts[:-1], start=1):
        try:
            child = _open_folder(fd, name, "/".join(parts[:depth]), create=create)
        finally:
            os.close(fd)
        if child is None:
            return None
        fd = child
    return fd


def write_bytes(workspace: Path, relative: str, data: bytes) -> None:
    """Write ``data`` at ``workspace/relative``, replacing (never following) what is there.

    The file is written under a fresh name and renamed over the target, so a link, FIFO or
    hard link at the target is replaced, not written through. A regular file keeps its mode.
    """
    parts = _parts(relative)
    fd = _open_parent(workspace, parts, create=True)
    assert fd is not None
    temporary = f".garuda-write-{secrets.token_hex(8)}"
    try:
        out = os.open(temporary, _NEW_FILE_FLAGS, 0o666, dir_fd=fd)
        try:
            with contextlib.suppress(FileNotFoundError):
                old = os.stat(parts[-1], dir_fd=fd, follow_symlinks=False)
                if stat.S_ISREG(old.st_mode):
                    os.fchmod(out, stat.S_IMODE(old.st_mode))
            view = memoryview(data)
            while view:
                view = view[os.write(out, view) :]
        finally:
            os.close(out)
        try:
            os.replace(temporary, parts[-1], src_dir_fd=fd, dst_dir_fd=fd)
        except OSError as error:
            os.unlink(temporary, dir_fd=fd)
            raise UnsafePathError(f"{relative}: cannot replace it: {error.strerror}") from error
    finally:
        os.close(fd)


def write_text(workspace: Path, relative: str, text: str) -> None:
    """``write_bytes`` of UTF-8 text."""
    write_bytes(workspace, relative, text.encode("utf-8"))


def delete(workspace: Path, relative: str) -> bool:
    """Remove ``workspace/relative`` (a file, a link itself, or a folder tree); False if absent.

    A folder tree is removed with descriptor-based ``shutil.rmtree``, which never follows links.
    """
    parts = _parts(relative)
    fd = _open_parent(workspace, parts, create=False)
    if fd is None:
        return False
    try:
        try:
            mode = os.stat(parts[-1], dir_fd=fd, follow_symlinks=False).st_mode
        except FileNotFoundError:
            return False
        if stat.S_ISDIR(mode):
            shutil.rmtree(parts[-1], dir_fd=fd)
        else:
            os.unlink(parts[-1], dir_fd=fd)
        return True
    finally:
        os.close(fd)
