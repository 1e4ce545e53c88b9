"""The benches: each has working --help, and one that cannot run what it measures fails."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


def _bench(
    name: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCH / name), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


@pytest.mark.parametrize("name", sorted(p.name for p in BENCH.glob("*.py")))
def test_every_bench_has_help(name: str) -> None:
    done = _bench(name, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: {name}")


def test_the_sandbox_bench_without_bwrap_fails_having_measured_nothing(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": str(tmp_path)}  # no bwrap (and nothing else) on PATH
    done = _bench("sandbox_overhead.py", "1", env=env)
    assert done.returncode == 1, done.stdout
    assert "nothing measured" in done.stderr and done.stdout == ""


def test_the_scale_bench_without_a_suite_to_run_fails_having_measured_nothing(
    tmp_path: Path,
) -> None:
    done = _bench("scale.py", "--suite", str(tmp_path / "none"), "--only", "memory")
    assert done.returncode == 1, done.stdout
    assert "nothing measured" in done.stderr and done.stdout == ""


def test_the_instructions_bench_without_valgrind_fails_having_measured_nothing(
    tmp_path: Path,
) -> None:
    env = {**os.environ, "PATH": str(tmp_path)}  # no valgrind (and nothing else) on PATH
    done = _bench("instructions.py", env=env)
    assert done.returncode == 1, done.stdout
    assert "nothing measured" in done.stderr and done.stdout == ""


def test_the_swebench_import_bench_runs_briefly() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "swebench_import.py"), "--per-repo", "1", "--sample", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "2 instances over 2 repositories" in done.stdout
    assert "acme/shapes" in done.stdout and "ratio" in done.stdout


def test_the_held_out_bench_with_one_test_per_candidate_fails_having_measured_nothing() -> None:
    """One failing test function per candidate: nothing can be held out."""
    done = _bench("repo_held_out.py", "--candidates", "1", "--tests", "1")
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.strip().endswith("no test could be held out: nothing measured")
    assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1
