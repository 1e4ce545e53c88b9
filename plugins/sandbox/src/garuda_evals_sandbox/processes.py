"""Find (and end) host processes whose command line carries a token."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

SETTLE_S = 5.0


def _from_proc(token: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if token.encode() in cmdline:
            found.append(int(entry.name))
    return found


def _from_ps(token: str) -> list[int]:
    out = subprocess.run(["ps", "-axo", "pid=,command="], capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        pid, _, command = line.strip().partition(" ")
        if token in command and pid.isdigit() and int(pid) != os.getpid():
            found.append(int(pid))
    return found


def processes_with(token: str) -> list[int]:
    """PIDs of live processes whose command line contains ``token``."""
    return _from_proc(token) if Path("/proc/self").exists() else _from_ps(token)


def survivors(token: str, settle_s: float = SETTLE_S) -> list[int]:
    """The processes still alive after up to ``settle_s`` (a killed tree takes a moment)."""
    deadline = time.monotonic() + settle_s
    while True:
        found = processes_with(token)
        if not found or time.monotonic() >= deadline:
            return found
        time.sleep(0.1)


def kill_all(pids: list[int]) -> None:
    """SIGKILL escaped processes so a failed check leaves nothing behind."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
