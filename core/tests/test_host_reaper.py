"""No process outlives its command on the host: daemons that left the process group included.

Each case starts a real daemon that escapes the process group, waits (inside the command)
until the daemon says it is ready, then ends. Every daemon carries a unique marker in its
command line; after ``run`` returns, ``/proc`` must hold no process with that marker. The
controls run the same commands with the plain process-group kill and find the daemon alive.
"""

from __future__ import annotations

import os
import secrets
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest

from garuda_evals.environment import check_environment
from garuda_evals.executors.base import CommandResult
from garuda_evals.executors.host import SHELL, HostExecutor
from garuda_evals.executors.process import kill_descendants, reaper_available, run_in_group

pytestmark = pytest.mark.skipif(not reaper_available(), reason="child subreapers are Linux-only")

DAEMON = """
import os, signal, sys, time
marker, ready, how = sys.argv[1], sys.argv[2], sys.argv[3]
if os.fork():
    os._exit(0)
os.setsid()
if os.fork():
    os._exit(0)
if how in ("closefds", "stubborn"):
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.closerange(3, 1024)
if how == "stubborn":
    for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(number, signal.SIG_IGN)
open(ready, "w").close()
time.sleep(1000)
"""

WAIT_READY = 'while [ ! -e "$READY" ]; do sleep 0.01; done'


def _escapes(marker: str, ready: Path, daemon: Path) -> dict[str, str]:
    py = f"{sys.executable} {daemon} {marker} {ready}"
    sleep_arg = f"1000.{marker}"
    return {
        "setsid": f"setsid sh -c 'touch \"$READY\"; exec sleep {sleep_arg}' &",
        "nohup": f"nohup setsid sh -c 'touch \"$READY\"; exec sleep {sleep_arg}' >/dev/null 2>&1 &",
        "double-fork": f"{py} plain",
        "closefds": f"{py} closefds",
        "stubborn": f"{py} stubborn",
        "deep": f'bash -c "bash -c \'setsid sh -c \\"touch \\\\\\"\\$READY\\\\\\"; exec sleep {sleep_arg}\\" &\'"',
    }


CASES = ["setsid", "nohup", "double-fork", "closefds", "stubborn", "deep"]


def _doomed(pid: int) -> bool:
    """A zombie, or a process with SIGKILL pending: it can run no more code.

    A SIGKILLed process stays readable in /proc until the kernel tears it down, which on a
    loaded machine may come after the test looks: such a process is not a survivor.
    """
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return True
    fields = dict(line.split(":", 1) for line in lines if ":" in line)
    kill_bit = 1 << (signal.SIGKILL - 1)
    pending = int(fields.get("SigPnd", "0"), 16) | int(fields.get("ShdPnd", "0"), 16)
    return fields.get("State", "").strip().startswith(("Z", "X")) or bool(pending & kill_bit)


def _surviving(marker: str) -> list[int]:
    """Marked processes that can still run."""
    return [pid for pid in _marked(marker) if not _doomed(pid)]


def _marked(marker: str) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in cmdline:
            found.append(int(name))
    return found


@pytest.fixture
def daemon_case(tmp_path: Path):
    marker = str(secrets.randbelow(10**9) + 10**9)
    ready = tmp_path / "ready"
    daemon = tmp_path / "daemon.py"
    daemon.write_text(DAEMON)
    env = {**check_environment(), "READY": str(ready)}
    yield marker, ready, _escapes(marker, ready, daemon), env
    for pid in _marked(marker):
        os.kill(pid, signal.SIGKILL)


def _run(command: str, cwd: Path, env: dict[str, str], *, reap: bool, timeout_s: float = 60):
    async def go() -> CommandResult:
        return await run_in_group(
            [SHELL, "-c", command],
            cwd=cwd,
            env=env,
            timeout_s=timeout_s,
            output_limit=64 * 1024,
            reap=reap,
        )

    return anyio.run(go)


@pytest.mark.parametrize("case", CASES)
def test_control_group_kill_leaves_the_daemon(daemon_case, tmp_path: Path, case: str) -> None:
    marker, ready, escapes, env = daemon_case
    result = _run(f"{escapes[case]}\n{WAIT_READY}\nexit 0", tmp_path, env, reap=False)
    assert result.exit_code == 0 and ready.exists()
    assert _surviving(marker), "the plain group kill should miss a daemon that left the group"


@pytest.mark.parametrize("case", CASES)
def test_daemon_is_killed_when_the_command_ends(daemon_case, tmp_path: Path, case: str) -> None:
    marker, ready, escapes, env = daemon_case
    result = anyio.run(
        lambda: HostExecutor().run(
            f"{escapes[case]}\n{WAIT_READY}\necho done; exit 4",
            cwd=tmp_path,
            env=env,
            timeout_s=60,
        )
    )
    assert result.exit_code == 4 and "done" in result.output and ready.exists()
    assert _surviving(marker) == []


@pytest.mark.parametrize("case", ["setsid", "stubborn"])
def test_daemon_is_killed_at_the_time_limit(daemon_case, tmp_path: Path, case: str) -> None:
    marker, ready, escapes, env = daemon_case
    result = anyio.run(
        lambda: HostExecutor().run(
            f"{escapes[case]}\n{WAIT_READY}\nsleep 1000",
            cwd=tmp_path,
            env=env,
            timeout_s=5,
        )
    )
    assert result.timed_out and result.exit_code is None and ready.exists()
    assert _surviving(marker) == []


@pytest.mark.parametrize("case", ["setsid", "stubborn"])
def test_daemon_is_killed_on_cancellation(daemon_case, tmp_path: Path, case: str) -> None:
    marker, ready, escapes, env = daemon_case

    async def go() -> None:
        with anyio.CancelScope() as scope:
            async with anyio.create_task_group() as group:

                async def cancel_when_ready() -> None:
                    while not ready.exists():
                        await anyio.sleep(0.01)
                    scope.cancel()

                group.start_soon(cancel_when_ready)
                await HostExecutor().run(
                    f"{escapes[case]}\nsleep 1000", cwd=tmp_path, env=env, timeout_s=600
                )
        assert scope.cancelled_caught

    anyio.run(go)
    assert _surviving(marker) == []


def test_a_daemon_that_keeps_stopping_the_reaper_is_killed(daemon_case, tmp_path: Path) -> None:
    marker, ready, _, env = daemon_case
    stopper = f'touch "$READY"; while :; do kill -STOP $REAPER; done; : {marker}'
    command = f"export REAPER=$PPID; setsid sh -c '{stopper}' &\n{WAIT_READY}\nsleep 1000"
    result = anyio.run(lambda: HostExecutor().run(command, cwd=tmp_path, env=env, timeout_s=3))
    assert result.timed_out and ready.exists()
    assert _surviving(marker) == []


TRACER = """
import ctypes, sys, time
libc = ctypes.CDLL(None, use_errno=True)
if libc.ptrace(0x4206, int(sys.argv[1]), None, None) != 0:  # PTRACE_SEIZE
    sys.exit(f"ptrace refused: errno {ctypes.get_errno()}")
open(sys.argv[2], "w").close()
time.sleep(1000)
"""


def test_a_reaper_held_by_a_tracer_has_its_descendants_killed_from_outside(
    daemon_case, tmp_path: Path
) -> None:
    """A descendant that ptraces the reaper holds it in a tracing stop at its next signal,
    for good: the stop request never gets answered, and the harness kills the reaper's
    descendants itself (the tracer among them) before it kills the reaper."""
    marker, ready, _, env = daemon_case
    tracer = tmp_path / "tracer.py"
    tracer.write_text(TRACER)
    command = (
        f'setsid {sys.executable} {tracer} $PPID "$READY" {marker} &\n{WAIT_READY}\nsleep 1000'
    )
    result = anyio.run(lambda: HostExecutor().run(command, cwd=tmp_path, env=env, timeout_s=2))
    assert result.timed_out and ready.exists(), result.output
    assert _surviving(marker) == []


@pytest.mark.parametrize("depth", ["child", "grandchild"])
def test_harness_side_sweep_kills_descendants_of_a_stopped_parent(daemon_case, depth: str) -> None:
    marker, ready, _, env = daemon_case
    daemon = f"setsid sh -c 'touch \"$READY\"; exec sleep 1000.{marker}' & wait"
    if depth == "grandchild":
        daemon = f'bash -c "setsid sh -c \'touch \\"\\$READY\\"; exec sleep 1000.{marker}\' & wait" & wait'
    parent = subprocess.Popen([SHELL, "-c", daemon], env=env)
    while not ready.exists():
        time.sleep(0.01)
    os.kill(parent.pid, signal.SIGSTOP)
    daemons = [pid for pid in _marked(marker) if pid != parent.pid]
    assert daemons
    exits = [os.pidfd_open(pid) for pid in daemons]
    kill_descendants(parent.pid)
    try:
        for fd in exits:  # a pidfd turns readable once its process has exited
            assert select.select([fd], [], [], 120)[0] == [fd]
    finally:
        parent.kill()
        parent.wait()
        for fd in exits:
            os.close(fd)


def test_exit_status_signals_and_environment_pass_through(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "LANG": "C"}

    def host(command: str) -> CommandResult:
        return anyio.run(lambda: HostExecutor().run(command, cwd=tmp_path, env=env, timeout_s=60))

    assert host("exit 7").exit_code == 7
    assert host("kill -TERM $$").exit_code == -signal.SIGTERM
    shown = host("env; yes | head -1; pwd").output
    assert "LC_CTYPE" not in shown and "LANG=C\n" in shown
    assert "Broken pipe" not in shown and "y\n" in shown
    assert str(tmp_path) in shown
    assert host("exec /no/such/program").exit_code == 127


def test_without_the_reaper_the_group_is_killed_at_the_limit_with_no_warning(
    tmp_path: Path,
) -> None:
    """No reaper to ask for a sweep: the group gets SIGKILL, so a TERM trap never runs."""
    command = "trap 'echo got TERM; exit 3' TERM; echo started; while :; do sleep 0.1; done"
    result = _run(command, tmp_path, check_environment(), reap=False, timeout_s=1)
    assert result.timed_out and result.exit_code is None
    assert result.output == "started\n"


def test_without_the_reaper_a_leftover_in_the_group_is_killed_when_the_command_ends(
    daemon_case, tmp_path: Path
) -> None:
    marker, ready, _, env = daemon_case
    command = f"sh -c 'touch \"$READY\"; exec sleep 1000.{marker}' &\n{WAIT_READY}\nexit 0"
    result = _run(command, tmp_path, env, reap=False)
    assert result.exit_code == 0 and ready.exists()
    assert _surviving(marker) == []


def test_the_reaper_is_used_only_when_asked(tmp_path: Path) -> None:
    """Without ``reap`` (a sandbox that owns the process tree) the command is our child."""

    async def parent(**reap: bool) -> str:
        result = await run_in_group(
            [SHELL, "-c", "echo $PPID"],
            cwd=tmp_path,
            env=check_environment(),
            timeout_s=60,
            output_limit=1024,
            **reap,
        )
        return result.output.strip()

    assert anyio.run(lambda: parent()) == str(os.getpid())
    assert anyio.run(lambda: parent(reap=True)) != str(os.getpid())


def test_the_duration_counts_milliseconds(tmp_path: Path) -> None:
    result = _run("sleep 1", tmp_path, check_environment(), reap=False)
    assert result.exit_code == 0 and result.duration_ms >= 1000
