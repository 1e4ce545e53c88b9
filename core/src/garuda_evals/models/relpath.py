"""Paths a task names (files, deletions, protected patterns): relative, posix, inside the task."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator


def check_relative(path: str, *, folder_pattern: bool = False) -> str:
    """Return ``path`` when it is a clean relative posix path, else raise ValueError.

    Clean means: not empty, no leading ``/``, no backslash or NUL, no empty, ``.`` or
    ``..`` part. With ``folder_pattern`` one trailing ``/`` is allowed (``tests/``).
    """
    if not path:
        raise ValueError("must not be empty")
    if path.startswith("/"):
        raise ValueError(f"'{path}' must be relative (no leading '/')")
    if "\\" in path or "\0" in path:
        raise ValueError(f"'{path}' must be a posix path (no backslash or NUL)")
    body = path[:-1] if folder_pattern and path.endswith("/") else path
    parts = body.split("/")
    if ".." in parts:
        raise ValueError(f"'{path}' must stay inside the task folder (no '..')")
    if "" in parts or "." in parts:
        raise ValueError(f"'{path}' must not have empty or '.' parts")
    return path


def _relative(path: str) -> str:
    return check_relative(path)


def _pattern(path: str) -> str:
    return check_relative(path, folder_pattern=True)


TaskPath = Annotated[str, AfterValidator(_relative)]
"""A file path inside a task's workspace, such as ``src/calc.py``."""

ProtectedPattern = Annotated[str, AfterValidator(_pattern)]
"""A protected pattern: a file path, a file name, or a folder ending in ``/``."""
