"""Whether bwrap works here: one sandboxed ``true``, and what its failures mean."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from garuda_evals_sandbox_bwrap.seccomp import filter_fd, native_arch

PROBE_TIMEOUT_S = 20.0
USERNS_MARKERS = (
    "user namespace",
    "No permissions to creat",
    "Creating new namespace failed",
    "setting up uid map",
    "max_user_namespaces",
)
PROC_MARKER = "Can't mount proc"
USERNS_HELP = (
    "bwrap cannot create namespaces here: user namespaces are blocked ({detail}). "
    "Allow them (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 "
    "kernel.apparmor_restrict_unprivileged_userns=0; in Docker run with a seccomp/apparmor "
    "profile that permits unshare), or choose --executor host"
)


@dataclass(frozen=True)
class ProbeResult:
    """The probe's verdict: whether bwrap works and whether it may mount its own /proc."""

    ok: bool
    mount_proc: bool
    reason: str = ""
    version: str = ""


def first_bwrap_error(output: str) -> str:
    """The first ``bwrap: ...`` line of ``output`` (bwrap's own error), or ''."""
    for line in output.splitlines():
        if line.startswith("bwrap: "):
            return line.removeprefix("bwrap: ").strip()
    return ""


def is_proc_refused(output: str) -> bool:
    """True when bwrap failed only because it may not mount /proc (restrictive containers)."""
    return PROC_MARKER in first_bwrap_error(output)


def userns_message(output: str) -> str | None:
    """The clear explanation when bwrap failed because namespaces are blocked, else None."""
    error = first_bwrap_error(output)
    if error and any(marker in error for marker in USERNS_MARKERS):
        return USERNS_HELP.format(detail=error)
    return None


def _run(argv: Sequence[str]) -> tuple[int, str]:
    arch = native_arch()
    fd = filter_fd(arch) if arch else None
    full = [*argv[:-2], *(["--seccomp", str(fd)] if fd is not None else []), *argv[-2:]]
    try:
        done = subprocess.run(
            full,
            pass_fds=(fd,) if fd is not None else (),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=PROBE_TIMEOUT_S,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return 127, f"bwrap: {error}"
    finally:
        if fd is not None:
            os.close(fd)
    return done.returncode, done.stdout + done.stderr


def _argv(launcher: Sequence[str], mount_proc: bool) -> list[str]:
    argv = [*launcher, "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
    argv += ["--unshare-net", "--unshare-pid"]
    argv += ["--unshare-ipc", "--unshare-uts", "--ro-bind", "/", "/", "--dev", "/dev"]
    argv += ["--proc", "/proc"] if mount_proc else []
    return [*argv, "--tmpfs", "/tmp", "--", "/bin/true"]


def bwrap_version(launcher: Sequence[str]) -> str:
    """``bwrap --version``'s number, or '' when it does not answer."""
    try:
        out = subprocess.run(
            [launcher[0], "--version"], capture_output=True, text=True, timeout=PROBE_TIMEOUT_S
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return out.split()[-1] if out.split() else ""


@functools.lru_cache(maxsize=8)
def probe(launcher: tuple[str, ...]) -> ProbeResult:
    """Run ``true`` in the sandbox; retry without ``--proc`` where /proc may not be mounted."""
    if not sys.platform.startswith("linux"):
        return ProbeResult(False, False, f"bwrap needs Linux (this is {sys.platform})")
    if native_arch() is None:
        return ProbeResult(False, False, "no seccomp filter for this CPU: unix sockets stay open")
    version = bwrap_version(launcher)
    code, output = _run(_argv(launcher, mount_proc=True))
    if code == 0:
        return ProbeResult(True, True, "", version)
    if is_proc_refused(output):
        code, output = _run(_argv(launcher, mount_proc=False))
        if code == 0:
            return ProbeResult(True, False, "", version)
    explained = userns_message(output)
    if explained:
        return ProbeResult(False, False, explained, version)
    detail = first_bwrap_error(output) or output.strip()[:200] or f"exit {code}"
    return ProbeResult(False, False, f"bwrap does not work here: {detail}", version)
