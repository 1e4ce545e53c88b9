"""Run one command in its own process group and kill the whole group when it ends."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import anyio
from anyio.abc import Process

from garuda_evals.executors.base import CommandResult
from garuda_evals.executors.output import CappedOutput

DRAIN_GRACE_S = 1.0


def kill_group(pid: int) -> None:
    """SIGKILL the process group led by ``pid``; a group already gone is fine."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


async def run_in_group(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout_s: float,
    output_limit: int,
    pass_fds: Sequence[int] = (),
) -> CommandResult:
    """Run ``argv`` as a new session; at exit or at the limit, kill what is left of its group.

    Output (stdout and stderr together) is captured up to ``output_limit``. Cancellation
    (Ctrl-C) kills the group too, shielded, before it propagates.
    """
    started = time.monotonic()
    output = CappedOutput(output_limit)
    process: Process = await anyio.open_process(
        list(argv),
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
            kill_group(process.pid)
            with anyio.move_on_after(DRAIN_GRACE_S):
                await drained.wait()
            group.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            kill_group(process.pid)
            await process.wait()
            await process.aclose()
    return CommandResult(
        exit_code=None if timed_out else process.returncode,
        output=output.text(),
        timed_out=timed_out,
        duration_ms=int((time.monotonic() - started) * 1000),
        truncated=output.truncated,
    )
