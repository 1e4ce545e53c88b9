"""Run one command in its own process group and kill whatever it leaves when it ends.

Two ways to end a command's processes:

- ``reap=True`` on Linux: the command runs under ``reaper.py``, a child subreaper that kills
  and reaps every descendant (``setsid`` and double-forked daemons included) when the command
  exits, or when it is told to stop (at the time limit or on cancellation); ``run_in_group``
  returns only after the reaper has exited. The reaper is forked by ``reaper_server`` where
  it can be, started otherwise.
- otherwise (macOS, or a sandbox that already owns the process tree): the process group is
  SIGKILLed. A descendant that left the group (``setsid``) survives this on the host.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import anyio
from anyio.abc import Process

from garuda_evals.executors import reaper
from garuda_evals.executors.base import CommandResult
from garuda_evals.executors.output import CappedOutput
from garuda_evals.executors.reaper_server import ReapedProcess, open_reaped

DRAIN_GRACE_S = 1.0
REAPER = Path(reaper.__file__)
REAPER_STOP_GRACE_S = 5.0
REAPER_NUDGE_S = 0.1


def kill_group(pid: int) -> None:
    """SIGKILL the process group led by ``pid``; a group already gone is fine."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


@functools.cache
def reaper_available() -> bool:
    """True on Linux with /proc (child subreapers exist since Linux 3.4)."""
    return sys.platform.startswith("linux") and os.path.isdir("/proc/self") and bool(sys.executable)


def under_reaper(argv: Sequence[str]) -> list[str]:
    """``argv`` wrapped in the reaper: an isolated Python without site-packages.

    The reaper is imported (not run as a script) so its cached bytecode is used.
    """
    boot = (
        f"import sys; sys.path.insert(0, {str(REAPER.parent)!r}); "
        "import reaper; reaper.main(sys.argv[1:])"
    )
    return [sys.executable, "-I", "-S", "-c", boot, *argv]


def kill_descendants(pid: int) -> None:
    """SIGKILL every descendant of ``pid`` found in /proc (the reaper's job, done from here)."""
    for child in reaper.descendants(pid)[0]:
        reaper.kill(child)


async def _stop(process: Process | ReapedProcess, *, reaped: bool) -> None:
    """End the command: ask the reaper to sweep (and wait for it), then SIGKILL the group.

    A reaper that does not finish in time (a descendant keeps stopping it) gets its
    descendants killed from here, while they are still its descendants, before it is killed.
    """
    if reaped and process.returncode is None:
        with anyio.move_on_after(REAPER_STOP_GRACE_S):
            while process.returncode is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(process.pid, signal.SIGCONT)
                    os.kill(process.pid, signal.SIGTERM)
                with anyio.move_on_after(REAPER_NUDGE_S):
                    await process.wait()
        if process.returncode is None:
            kill_descendants(process.pid)
    kill_group(process.pid)


async def run_in_group(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout_s: float,
    output_limit: int,
    pass_fds: Sequence[int] = (),
    reap: bool = False,
) -> CommandResult:
    """Run ``argv`` as a new session; at exit or at the limit, kill what is left of it.

    With ``reap`` (where ``reaper_available()``), descendants that left the group are killed
    too (see the module docstring). Output (stdout and stderr together) is captured up to
    ``output_limit``. Cancellation (Ctrl-C) ends the command too, shielded, before it
    propagates.
    """
    reaped = reap and reaper_available()
    started = time.monotonic()
    output = CappedOutput(output_limit)
    served = None
    if reaped and not pass_fds:
        served = await open_reaped(argv, cwd=cwd, env=env)
    process: Process | ReapedProcess = served or await anyio.open_process(
        under_reaper(argv) if reaped else list(argv),
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        pass_fds=pass_fds,
    )
    timed_out = False
    try:
        async with anyio.create_task_group() as group:
            drained = anyio.Event()

            async def pump() -> None:
                assert process.stdout is not None
                try:
                    async for chunk in process.stdout:
                        output.feed(chunk)
                except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
                    pass
                finally:
                    drained.set()

            group.start_soon(pump)
            with anyio.move_on_after(timeout_s):
                await process.wait()
            timed_out = process.returncode is None
            await _stop(process, reaped=reaped)
            with anyio.move_on_after(DRAIN_GRACE_S):
                await drained.wait()
            group.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            await _stop(process, reaped=reaped)
            await process.wait()
            await process.aclose()
    return CommandResult(
        exit_code=None if timed_out else process.returncode,
        output=output.text(),
        timed_out=timed_out,
        duration_ms=int((time.monotonic() - started) * 1000),
        truncated=output.truncated,
    )
