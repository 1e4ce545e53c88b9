"""``garuda eval -s python`` end to end, through the installed console script."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from garuda_evals.testing import only_report, result_rows, run_garuda


def _eval(agent: str, cwd: Path) -> tuple[subprocess.CompletedProcess[str], dict]:
    done = run_garuda("eval", "--agent", agent, "-s", "python", "--executor", "host", cwd=cwd)
    return done, only_report(cwd, done.stdout + done.stderr)


def test_oracle_passes_all_five(tmp_path: Path, task_ids: list[str]) -> None:
    done, report = _eval("oracle", tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert result_rows(done.stdout, "python") == dict.fromkeys(task_ids, "PASS")
    summary = report["summary"]
    assert (summary["attempted"], summary["passed"], summary["errors"]) == (5, 5, 0)
    assert summary["scoredRate"] == summary["attemptedRate"] == 1.0
    assert report["versions"]["garuda-evals-python"] == "0.1.0"
    assert "pytest" in report["toolchains"]
    assert all(result["check"]["testsRan"] >= 5 for result in report["results"])


def test_noop_fails_all_five_with_the_reason(tmp_path: Path, task_ids: list[str]) -> None:
    done, report = _eval("noop", tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert result_rows(done.stdout, "python") == dict.fromkeys(task_ids, "FAIL")
    assert report["summary"]["passed"] == 0
    for result in report["results"]:
        assert result["status"] == "FAIL"
        assert result["failure"].startswith("check exited "), result["failure"]
        assert result["protectedChanges"] == []


def test_list_shows_the_suite_and_its_toolchain(tmp_path: Path) -> None:
    done = run_garuda("eval", "--list", cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    python_line = next(line for line in done.stdout.splitlines() if line.split()[:1] == ["python"])
    assert "5 tasks" in python_line and "needs pytest" in python_line


def test_missing_pytest_stops_the_run_before_any_task(tmp_path: Path) -> None:
    bare = tmp_path / "bare-venv"
    base_python = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base_python, "-m", "venv", "--without-pip", str(bare)], check=True)
    done = run_garuda(
        "eval", "--agent", "oracle", "-s", "python", "--executor", "host",
        cwd=tmp_path, env={**os.environ, "VIRTUAL_ENV": str(bare)}, timeout=300,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "toolchain pytest is not ready" in done.stderr
    assert "pip install 'pytest>=7'" in done.stderr
    assert "No module named pytest" in done.stderr
    assert "PASS" not in done.stdout and "start:" not in done.stderr


def test_the_pytest_probe_is_cached_across_runs_and_reprobe_runs_it(
    tmp_path: Path, task_ids: list[str]
) -> None:
    """The first run probes, the next trusts the cache, ``--reprobe`` probes again; each
    report says which (the probe cache is this test's own: see the root conftest)."""
    seen = []
    for name, extra in (("first", ()), ("second", ()), ("reprobe", ("--reprobe",))):
        cwd = tmp_path / name
        cwd.mkdir()
        args = ("-s", "python", "-t", task_ids[0], "--executor", "host", *extra)
        done = run_garuda("eval", "--agent", "oracle", *args, cwd=cwd)
        assert done.returncode == 0, done.stdout + done.stderr
        report = only_report(cwd)
        seen.append(report["toolchainProbes"])
        assert report["toolchains"]["pytest"]["version"]
        assert report["settings"]["reprobe"] is bool(extra)
    assert seen == [{"pytest": "probed"}, {"pytest": "cached"}, {"pytest": "probed"}]
