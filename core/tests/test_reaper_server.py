"""Reapers forked by the reaper server: used when it can be, the old way when it cannot.

The guarantees themselves (no daemon outlives its command, at the end, at the limit, on
cancellation) are ``test_host_reaper.py``'s cases, which run through the server.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest

from garuda_evals.environment import check_environment
from garuda_evals.executors import reaper, reaper_server
from garuda_evals.executors.host import HostExecutor
from garuda_evals.executors.process import reaper_available

pytestmark = pytest.mark.skipif(not reaper_available(), reason="child subreapers are Linux-only")


def _parent_of_reaper(folder: Path, env: dict[str, str] | None = None) -> tuple[int, str]:
    """The pid of the process that started the command's reaper, and the output."""
    command = "echo $PPID; cut -d' ' -f4 /proc/$PPID/stat"
    result = anyio.run(
        lambda: HostExecutor().run(
            command, cwd=folder, env=env or check_environment(), timeout_s=60
        )
    )
    assert result.exit_code == 0, result.output
    return int(result.output.split()[1]), result.output


def test_commands_run_under_reapers_forked_by_one_server(tmp_path: Path) -> None:
    first, _ = _parent_of_reaper(tmp_path)
    second, _ = _parent_of_reaper(tmp_path)
    server = reaper_server._current()
    assert server is not None
    assert first == second == server.process.pid != os.getpid()


def test_a_dead_server_gives_way_to_a_started_reaper(tmp_path: Path) -> None:
    server = reaper_server._current()
    assert server is not None
    server.process.send_signal(signal.SIGKILL)
    server.process.wait()
    parent, _ = _parent_of_reaper(tmp_path)
    assert parent == os.getpid()  # started by the harness itself, the old way
    reaper_server._failed_in = None  # later tests get a server again


def test_a_request_too_large_for_the_server_starts_a_reaper(tmp_path: Path) -> None:
    large = {f"LARGE{n}": "x" * 32768 for n in range(reaper.REQUEST_LIMIT // 32768 + 1)}
    env = {**check_environment(), **large}
    parent, _ = _parent_of_reaper(tmp_path, env)
    assert parent == os.getpid()


def test_a_missing_folder_is_an_error_as_for_any_process(tmp_path: Path) -> None:
    server = reaper_server._current()
    with pytest.raises(FileNotFoundError):
        anyio.run(
            lambda: HostExecutor().run(
                "true", cwd=tmp_path / "missing", env=check_environment(), timeout_s=60
            )
        )
    assert reaper_server._current() is server  # the server goes on serving


HARNESS = """
import anyio, sys
from garuda_evals.environment import check_environment
from garuda_evals.executors.host import HostExecutor

anyio.run(lambda: HostExecutor().run(
    "echo $$ > pid.txt; exec sleep 300", cwd=sys.argv[1], env=check_environment(), timeout_s=600
))
"""


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, whose parent has not reaped it yet, counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_a_command_in_flight_ends_when_the_harness_dies(tmp_path: Path) -> None:
    """A harness killed outright (SIGKILL: no clean-up of its own) leaves no command running:
    its end of the server's socket closes, and the server stops the reapers it forked."""
    harness = subprocess.Popen([sys.executable, "-c", HARNESS, str(tmp_path)])
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "pid.txt").is_file() or not (tmp_path / "pid.txt").read_text():
            assert time.monotonic() < deadline and harness.poll() is None
            time.sleep(0.05)
        command = int((tmp_path / "pid.txt").read_text())
        assert _alive(command)
    finally:
        harness.kill()
        harness.wait()
    deadline = time.monotonic() + 15
    while _alive(command) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(command)
