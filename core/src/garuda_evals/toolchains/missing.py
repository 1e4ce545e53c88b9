"""Name a program the probe could not find, and where it is installed if not on PATH."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

NOT_FOUND = re.compile(r"(?:^|: )([\w.+-]+): (?:command )?not found$", re.MULTILINE)
# Folders that installers fill but that are often not on PATH (``go install``, ``pip
# install --user``, ``cargo install``, ``npm -g`` with a user prefix, Go's own tarball).
INSTALL_FOLDERS = (
    "{GOBIN}",
    "{GOPATH}/bin",
    "~/go/bin",
    "~/.local/bin",
    "~/.cargo/bin",
    "~/.npm-global/bin",
    "/usr/local/go/bin",
    "/usr/lib/go/bin",
    "/snap/bin",
)


def programs_not_found(output: str) -> list[str]:
    """Programs the shell reported as not found (``bash: line 1: gotestsum: command not found``)."""
    return list(dict.fromkeys(NOT_FOUND.findall(output)))


def install_folders(env: Mapping[str, str]) -> list[Path]:
    """The folders where installers put programs, with ``{VAR}`` and ``~`` filled in."""
    found = []
    for pattern in INSTALL_FOLDERS:
        names = re.findall(r"\{(\w+)\}", pattern)
        if any(not env.get(name) for name in names):
            continue
        text = pattern
        for name in names:
            text = text.replace(f"{{{name}}}", env[name].split(os.pathsep)[0])
        home = env.get("HOME", "")
        if text.startswith("~") and not home:
            continue
        found.append(Path(text.replace("~", home, 1)))
    return list(dict.fromkeys(found))


def where_installed(program: str, env: Mapping[str, str]) -> Path | None:
    """``program`` in an install folder that is not on ``PATH``, or None."""
    on_path = {Path(part) for part in env.get("PATH", "").split(os.pathsep) if part}
    for folder in install_folders(env):
        candidate = folder / program
        if folder not in on_path and candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def describe_missing(output: str, env: Mapping[str, str]) -> str:
    """One sentence per program the probe did not find, saying where it is if installed."""
    sentences = []
    for program in programs_not_found(output):
        found = where_installed(program, env)
        if found is None:
            sentences.append(
                f"`{program}` is not on PATH and not installed where installers put it."
            )
        else:
            sentences.append(
                f"`{program}` is installed at {found} but {found.parent} is not on PATH: "
                f'add it (export PATH="{found.parent}:$PATH").'
            )
    return " ".join(sentences)
