"""Reading a folder someone else wrote without following links or blocking on a FIFO."""

from __future__ import annotations

import os
import stat
from pathlib import Path

KINDS = {
    stat.S_IFLNK: "a symbolic link",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
    stat.S_IFDIR: "a folder",
}


def kind(mode: int) -> str:
    """What a non-regular file is, in words."""
    return KINDS.get(stat.S_IFMT(mode), "not a regular file")


def read_regular(path: Path, limit: int) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes, else None.

    The file is opened without following a link and without blocking (a FIFO put in its
    place after an ``lstat`` cannot hang the caller), then checked again with ``fstat``.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        chunks: list[bytes] = []
        remaining = limit + 1
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        data = b"".join(chunks)
        return data if len(data) <= limit else None
    finally:
        os.close(fd)


def lstat_or_none(path: Path) -> os.stat_result | None:
    """``os.lstat`` or None when nothing (or no folder on the way) is there."""
    try:
        return os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None


def has_linked_parent(root: Path, relative: str) -> bool:
    """True when a folder between ``root`` and ``root/relative`` is a link (or not a folder)."""
    current = root
    for part in relative.split("/")[:-1]:
        current = current / part
        info = lstat_or_none(current)
        if info is None:
            return False
        if not stat.S_ISDIR(info.st_mode):
            return True
    return False
