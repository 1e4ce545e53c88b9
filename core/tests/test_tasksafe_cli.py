"""Through the real ``garuda eval``: a manifest that reaches outside, and a daemon on the host."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
from pathlib import Path

from garuda_evals.executors.process import reaper_available
from garuda_evals.testing import only_report, run_garuda


def test_oracle_run_of_a_suite_that_deletes_outside_stops_before_any_task(
    mini_suite: Path, tmp_path: Path
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    manifest = mini_suite / "add" / "task.toml"
    manifest.write_text(manifest.read_text() + f'solution_delete = ["../../{victim.name}"]\n')
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    done = run_garuda(
        "eval", "--agent", "oracle", "-s", str(mini_suite), "--executor", "host", cwd=run_dir
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"{manifest}: field 'solution_delete.0'" in done.stderr
    assert victim.read_text() == "keep me"


def _marked(marker: str) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        try:
            if name.isdigit() and marker.encode() in Path(f"/proc/{name}/cmdline").read_bytes():
                found.append(int(name))
        except OSError:
            continue
    return found


def test_an_agent_daemon_does_not_outlive_a_host_run(mini_suite: Path, tmp_path: Path) -> None:
    marker = f"1000.{secrets.randbelow(10**9) + 10**9}"
    agent = (
        f"setsid sh -c 'touch .started; exec sleep {marker}' </dev/null >/dev/null 2>&1 & "
        "while [ ! -e .started ]; do sleep 0.01; done"
    )
    workspace: Path | None = None
    try:
        done = run_garuda(
            "eval", "--agent", "command", "--agent-command", agent, "-s", str(mini_suite),
            "-t", "add", "--executor", "host", "--keep", cwd=tmp_path,
        )  # fmt: skip
        report = only_report(tmp_path, done.stdout + done.stderr)
        assert report["results"][0]["status"] == "FAIL", done.stdout + done.stderr
        workspace = Path(report["results"][0]["workspace"])
        assert (workspace / ".started").exists(), "the daemon never started"
        if reaper_available():
            assert _marked(marker) == []
        else:
            assert _marked(marker), "without a reaper the group kill misses a setsid daemon"
    finally:
        for pid in _marked(marker):
            os.kill(pid, signal.SIGKILL)
        if workspace is not None:
            shutil.rmtree(workspace, ignore_errors=True)
