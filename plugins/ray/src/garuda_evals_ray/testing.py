"""Helpers for tests of the Ray backend: the test cluster's record, process look-ups."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Cluster:
    """The test cluster: its address, its Ray session folder and its nodes' TMPDIR."""

    address: str
    temp_dir: Path
    scratch: Path


def without_go(path: str) -> str:
    """``path`` less the folder of ``go`` (a node that lacks a toolchain the driver has)."""
    go = shutil.which("go")
    hidden = {str(Path(go).parent)} if go else set()
    return os.pathsep.join(p for p in path.split(os.pathsep) if p not in hidden)


def with_env(name: str, value: str) -> list[int]:
    """Live processes whose environment has ``name=value`` (the ones a run started)."""
    needle = f"{name}={value}".encode() + b"\0"
    found = []
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            if needle in environ.read_bytes():
                found.append(int(environ.parent.name))
        except OSError:
            continue
    return found
