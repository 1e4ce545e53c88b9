"""``garuda eval -s basic`` and ``-s hard`` end to end, through the installed console script."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from garuda_evals.testing import only_report, result_rows, run_garuda
from garuda_evals_node.toolchain import MIN_NODE

BASIC = 10
HARD = 6


def _eval(
    cwd: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return run_garuda("eval", "--executor", "host", *args, cwd=cwd, env=env)


@pytest.mark.parametrize(("suite", "count"), [("basic", BASIC), ("hard", HARD)])
def test_node_oracle_passes_every_task(node, tmp_path: Path, suite: str, count: int) -> None:
    done = _eval(tmp_path, "--agent", "oracle", "-s", suite, "--parallel", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    rows = result_rows(done.stdout)
    assert len(rows) == count and set(rows.values()) == {"PASS"}, rows
    report = only_report(tmp_path)
    assert (report["summary"]["attempted"], report["summary"]["passed"]) == (count, count)
    assert report["versions"]["garuda-evals-node"] == "0.1.0"
    assert "node" in report["toolchains"]
    assert all(result["check"]["testsRan"] >= 3 for result in report["results"])


def test_node_noop_fails_every_task_with_a_reason(node, tmp_path: Path) -> None:
    done = _eval(tmp_path, "--agent", "noop", "-s", "basic", "-s", "hard", "--parallel", "2")
    assert done.returncode == 2, done.stdout + done.stderr
    rows = result_rows(done.stdout)
    assert len(rows) == BASIC + HARD and set(rows.values()) == {"FAIL"}, rows
    report = only_report(tmp_path)
    assert report["summary"]["passed"] == 0
    for result in report["results"]:
        assert result["failure"].startswith("check exited 1: "), result["failure"]
        assert result["protectedChanges"] == []
    reasons = {(r["suite"], r["task"]): r["failure"] for r in report["results"]}
    assert "test/hard/rounding.test.js::3 x $19.99 to California" in reasons[("hard", "rounding")]
    assert "the old name getUsrNm is still used" in reasons[("basic", "rename")]
    assert "dead code left" in reasons[("hard", "unused")]


def test_node_list_shows_both_suites_with_the_toolchain(tmp_path: Path) -> None:
    done = run_garuda("eval", "--list", cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = {line.split()[0]: line for line in done.stdout.splitlines() if line.strip()}
    assert "10 tasks" in lines["basic"] and "needs node" in lines["basic"]
    assert "6 tasks" in lines["hard"] and "needs node" in lines["hard"]


def test_node_missing_stops_the_run_before_any_task(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "grep", "env"):
        (bin_dir / tool).symlink_to(
            f"/bin/{tool}" if Path(f"/bin/{tool}").exists() else f"/usr/bin/{tool}"
        )
    env = {**os.environ, "PATH": str(bin_dir)}
    done = _eval(tmp_path, "--agent", "oracle", "-s", "basic", env=env)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "node" in done.stderr and f"Install Node.js {MIN_NODE} or newer" in done.stderr
    assert "PASS" not in done.stdout and "start:" not in done.stderr
