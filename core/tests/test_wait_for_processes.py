"""``wait_for_processes``: the helper tests use to act once a run's command has started."""

from __future__ import annotations

import signal
import subprocess

import pytest

from garuda_evals.testing import processes_matching, sleep_marker, wait_for_processes


def test_it_returns_the_pids_once_the_process_runs() -> None:
    marker = sleep_marker(60)
    sleeper = subprocess.Popen(["sleep", marker])
    try:
        assert wait_for_processes(f"^sleep {marker}$", limit_s=30) == [sleeper.pid]
    finally:
        sleeper.kill()
        sleeper.wait()
    assert processes_matching(f"^sleep {marker}$") == []


def test_a_process_that_never_starts_fails_the_test_and_its_starter_is_killed() -> None:
    script = "echo 'why it did not start' >&2; exec sleep 60"
    starter = subprocess.Popen(["sh", "-c", script], stderr=subprocess.PIPE, text=True)
    with pytest.raises(pytest.fail.Exception, match="why it did not start"):
        wait_for_processes("^no such process here$", limit_s=1, started=starter)
    assert starter.returncode == -signal.SIGKILL
