"""Read a suite's folders as text files, refusing symbolic links and special files."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from garuda_evals.errors import FileFormatError

SKIPPED_FOLDERS = frozenset({"__pycache__"})


def _checked_mode(path: Path) -> int | None:
    """The lstat mode of ``path`` (None when absent); links and special files are errors."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(mode):
        raise FileFormatError(
            f"{path}: a symbolic link; suite files must be regular files inside the suite folder"
        )
    if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
        raise FileFormatError(f"{path}: not a regular file or folder")
    return mode


def check_entries(folder: Path) -> None:
    """Refuse a link or special file among the direct entries of ``folder`` (if it exists)."""
    try:
        with os.scandir(folder) as entries:
            paths = [Path(entry.path) for entry in entries]
    except FileNotFoundError:
        return
    for path in paths:
        _checked_mode(path)


def walk_files(root: Path) -> list[Path]:
    """Every regular file below ``root`` (sorted), refusing links and special files anywhere."""
    mode = _checked_mode(root)
    if mode is None or not stat.S_ISDIR(mode):
        return [] if mode is None else [root]
    found: list[Path] = []
    with os.scandir(root) as entries:
        children = sorted(Path(entry.path) for entry in entries)
    for child in children:
        found += walk_files(child)
    return found


def read_tree(root: Path) -> dict[str, str]:
    """Every file below ``root`` as ``relative/posix/path -> text``.

    Binary files, symbolic links and special files (FIFOs, sockets, devices) are errors
    that name the file; ``__pycache__`` folders are skipped (after the same checks).
    """
    files: dict[str, str] = {}
    if _checked_mode(root) is None:
        return files
    for path in walk_files(root):
        relative = path.relative_to(root)
        if SKIPPED_FOLDERS.intersection(relative.parts):
            continue
        try:
            files[relative.as_posix()] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as error:
            raise FileFormatError(f"{path}: task files must be UTF-8 text") from error
    return files
