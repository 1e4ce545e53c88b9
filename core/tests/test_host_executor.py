"""The host executor: exit codes, output cap, and a time limit that kills the whole tree."""

import os
import sys
import time
from pathlib import Path

import anyio
import pytest

from garuda_evals.environment import check_environment
from garuda_evals.executors.host import HostExecutor
from garuda_evals.executors.output import CappedOutput
from garuda_evals.executors.process import run_in_group


def run(command: str, cwd: Path, timeout_s: float = 20, limit: int = 256 * 1024):
    async def go():
        return await HostExecutor().run(
            command, cwd=cwd, env=check_environment(), timeout_s=timeout_s, output_limit=limit
        )

    return anyio.run(go)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = (
        Path(f"/proc/{pid}/stat").read_text().split()[2] if Path(f"/proc/{pid}").exists() else "X"
    )
    return status not in {"Z", "X"}


def test_exit_code_and_merged_output(tmp_path: Path) -> None:
    result = run("echo out; echo err >&2; exit 3", tmp_path)
    assert result.exit_code == 3 and not result.timed_out
    assert "out" in result.output and "err" in result.output


def test_output_is_capped_keeping_head_and_tail(tmp_path: Path) -> None:
    result = run(
        "echo FIRST; head -c 500000 /dev/zero | tr '\\0' x; echo; echo LAST", tmp_path, limit=4096
    )
    assert result.truncated
    assert result.output.startswith("FIRST") and result.output.rstrip().endswith("LAST")
    assert len(result.output) < 5000


def test_time_limit_kills_the_process_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    result = run(f"sleep 60 & echo $! > {pid_file}; wait", tmp_path, timeout_s=1)
    assert result.timed_out and result.exit_code is None
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)


def test_leftover_background_process_is_killed_when_command_ends(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    result = run(f"(sleep 60 & echo $! > {pid_file}); exit 0", tmp_path, timeout_s=30)
    assert result.exit_code == 0 and result.duration_ms < 20_000
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)


@pytest.mark.parametrize("size", [10, 100, 10_000])
def test_capped_output_keeps_small_output_whole(size: int) -> None:
    capped = CappedOutput(64 * 1024)
    capped.feed(b"a" * size)
    assert capped.text() == "a" * size and not capped.truncated


def test_environment_is_an_allow_list_with_toolchain_vars() -> None:
    env = check_environment(
        {"PATH": "/usr/bin", "HOME": "/h", "SECRET_TOKEN": "x", "JAVA_HOME": "/jdk"}
    )
    assert "SECRET_TOKEN" not in env
    assert env["JAVA_HOME"] == "/jdk" and env["HOME"] == "/h"


def test_the_command_is_killed_at_its_limit_not_after_the_output_drain(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from garuda_evals.executors import process

    # a command still holding its output open keeps the drain waiting: the kill must come first
    monkeypatch.setattr(process, "DRAIN_GRACE_S", 30.0)
    marker = tmp_path / "outlived"
    result = run(f"echo started; sleep 4; touch {marker}", tmp_path, timeout_s=1)
    assert result.timed_out and result.exit_code is None
    assert "started" in result.output
    assert not marker.exists()


LAST_WORDS = 900 * 1024
WRITE_AND_EXIT = f"""
import fcntl, os, sys, time
from pathlib import Path
folder = Path(sys.argv[1])
fcntl.fcntl(1, fcntl.F_SETPIPE_SZ, 1024 * 1024)
(folder / "ready").touch()
while not (folder / "go").exists():
    time.sleep(0.01)
rest = memoryview(b"x" * {LAST_WORDS})
while rest:
    rest = rest[os.write(1, rest) :]
(folder / "pid.tmp").write_text(str(os.getpid()))
(folder / "pid.tmp").rename(folder / "pid")
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="F_SETPIPE_SZ is Linux-only")
@pytest.mark.parametrize("reap", [False, True])
def test_output_still_in_the_pipe_when_the_exit_is_seen_is_read_to_the_end(
    tmp_path: Path, reap: bool
) -> None:
    # The event loop is busy (here: blocked) while the command fills a 1 MB pipe and exits:
    # when the exit is seen, most of its output is still unread, and must not be cut off.
    async def go():
        results = []

        async def command() -> None:
            argv = [sys.executable, "-c", WRITE_AND_EXIT, str(tmp_path)]
            results.append(
                await run_in_group(
                    argv,
                    cwd=tmp_path,
                    env=check_environment(),
                    timeout_s=60,
                    output_limit=2 * LAST_WORDS,
                    reap=reap,
                )
            )

        async with anyio.create_task_group() as group:
            group.start_soon(command)
            while not (tmp_path / "ready").exists():
                await anyio.sleep(0.01)
            (tmp_path / "go").touch()
            deadline = time.monotonic() + 30
            while not (tmp_path / "pid").exists() and time.monotonic() < deadline:
                time.sleep(0.01)
            pid = int((tmp_path / "pid").read_text())
            while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.2)
        return results[0]

    result = anyio.run(go)
    assert result.exit_code == 0 and not result.truncated
    assert len(result.output) == LAST_WORDS and set(result.output) == {"x"}


def test_the_host_backend_is_always_available() -> None:
    from garuda_evals.executors.host import HostBackend

    state = HostBackend().availability()
    assert state.ok and HostBackend().create(None).info().name == "host"  # type: ignore[arg-type]
