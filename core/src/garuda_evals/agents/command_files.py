"""The agent's own files, shown read-only to the command agent's executor: the files its
command names, and the ``--agent-mount`` paths.

A file the command names is a word of it (comments dropped, quotes removed; a word split at
``;&|()<>``, and the part after the first ``=`` of ``--flag=PATH`` or ``VAR=PATH`` too) that
is an absolute path, or starts with ``~``, ``~user``, ``$HOME`` or ``${HOME}``, and is an
existing regular file here. Relative words are left alone: the command runs in each task's
folder, where they name the task's own files. A folder is shown only when given with
``--agent-mount``. Files under ``/proc``, ``/sys`` and ``/dev`` are never shown (the sandbox
has its own).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from garuda_evals.agents.command_words import shell_words
from garuda_evals.errors import UsageError

OPERATOR_SPLIT = re.compile(r"([;&|()<>]+)")
HOME_PREFIXES = ("$HOME", "${HOME}")
PSEUDO = (Path("/proc"), Path("/sys"), Path("/dev"))


def _within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _expand(word: str) -> Path | None:
    """``word`` as the absolute path bash would give it, or None for a relative word."""
    for prefix in HOME_PREFIXES:
        if word == prefix or word.startswith(prefix + "/"):
            word = "~" + word[len(prefix) :]
    if word.startswith("~"):
        word = os.path.expanduser(word)
    return Path(os.path.normpath(word)) if os.path.isabs(word) else None


def _candidates(words: Iterable[str]) -> Iterable[str]:
    """The pieces of ``words`` that may name a file it reads: an output redirection's target
    (``> ~/log``) is written, never shown read-only (a file in the private /tmp stays
    writable)."""
    written = False
    for word in words:
        pieces = OPERATOR_SPLIT.split(word)
        for operator, piece in zip(["", *pieces[1::2]], pieces[::2], strict=True):
            if piece and not (">" in operator or (written and not operator)):
                yield piece
                _, equals, value = piece.partition("=")
                if equals:
                    yield value
            written = False
        written = ">" in pieces[-2] if len(pieces) > 1 and not pieces[-1] else False


def named_files(command: str) -> list[Path]:
    """The existing regular files the command names (see the module), links resolved."""
    found: list[Path] = []
    for word in _candidates(shell_words(command) or []):
        path = _expand(word)
        if path is None or not path.is_file():
            continue
        real = Path(os.path.realpath(path))
        if not any(_within(p, pseudo) for p in (path, real) for pseudo in PSEUDO):
            found.append(real)
    return list(dict.fromkeys(found))


def home_folders() -> list[Path]:
    """The user's home folder (links resolved), which the sandbox keeps hidden."""
    home = Path(os.path.realpath(os.path.expanduser("~")))
    return [] if home == Path(home.anchor) else [home]


def mount_paths(mounts: Iterable[str]) -> list[Path]:
    """The ``--agent-mount`` paths, links resolved; UsageError for one that does not exist,
    a pseudo file system, or a folder that is or holds the home folder (its keys and tokens
    stay hidden: mount the folders inside it)."""
    found: list[Path] = []
    for given in mounts:
        path = Path(os.path.realpath(os.path.expanduser(given)))
        if not path.exists():
            raise UsageError(f"--agent-mount {given}: not found")
        if path == Path(path.anchor) or any(_within(path, pseudo) for pseudo in PSEUDO):
            raise UsageError(f"--agent-mount {given}: cannot be shown in the sandbox")
        for home in home_folders():
            if _within(home, path):
                raise UsageError(
                    f"--agent-mount {given}: holds the home folder {home}, which the sandbox "
                    "keeps hidden (keys, tokens): mount the folders inside it the agent needs"
                )
        found.append(path)
    return list(dict.fromkeys(found))
