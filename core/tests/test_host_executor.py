"""The host executor: exit codes, output cap, and a time limit that kills the whole tree."""

import os
import time
from pathlib import Path

import anyio
import pytest

from garuda_evals.environment import check_environment
from garuda_evals.executors.host import HostExecutor
from garuda_evals.executors.output import CappedOutput


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


def test_the_host_backend_is_always_available() -> None:
    from garuda_evals.executors.host import HostBackend

    state = HostBackend().availability()
    assert state.ok and HostBackend().create(None).info().name == "host"  # type: ignore[arg-type]
