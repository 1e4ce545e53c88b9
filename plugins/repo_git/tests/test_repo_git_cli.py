"""End to end through the CLI: garuda eval --from-git, then -s repo with oracle and noop."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from garuda_evals.testing import skip_or_fail


def _garuda(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).parent / "garuda"
    return subprocess.run(
        [str(script), "eval", *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )


def _report(cwd: Path, output: str) -> dict[str, Any]:
    line = next(line for line in output.splitlines() if line.startswith("report: "))
    return json.loads(Path(line.removeprefix("report: ")).read_text())


def test_from_git_then_oracle_passes_and_noop_fails(tmp_path: Path, repo_kit: Any) -> None:
    if not shutil.which("node") or not shutil.which("npm"):
        skip_or_fail("node", "the CLI test mines a node --test project")
    repo = repo_kit.GitRepo(tmp_path / "mathjs")
    repo_kit.node_history(repo)
    repo.git("status")
    before = repo.state()
    built = _garuda(repo.root / "src", "--from-git", "--parallel", "2", "--commits", "50")
    assert built.returncode == 0, built.stdout + built.stderr
    assert "Kept 3 task(s)" in built.stdout
    assert "no sandbox" in built.stdout

    oracle = _garuda(repo.root, "-s", "repo", "--agent", "oracle", "--executor", "host")
    assert oracle.returncode == 0, oracle.stdout + oracle.stderr
    results = _report(repo.root, oracle.stderr)["results"]
    assert len(results) == 3
    assert {r["status"] for r in results} == {"PASS"}

    noop = _garuda(repo.root, "-s", "repo", "--agent", "noop", "--executor", "host")
    assert noop.returncode == 2, noop.stdout + noop.stderr
    results = _report(repo.root, noop.stderr)["results"]
    assert len(results) == 3
    assert {r["status"] for r in results} == {"FAIL"}

    task_id = json.loads((repo.root / ".garuda/evals/repo-suite.json").read_text())["tasks"][0][
        "id"
    ]
    one = _garuda(repo.root, "-s", "repo", "-t", task_id, "--agent", "oracle", "--executor", "host")
    assert one.returncode == 0, one.stdout + one.stderr
    assert [r["task"] for r in _report(repo.root, one.stderr)["results"]] == [task_id]
    assert repo.state() == before


def test_the_build_runs_as_many_at_a_time_as_the_machine_has_cores(
    tmp_path: Path, repo_kit: Any
) -> None:
    """``garuda eval`` runs one run at a time by default; a build, without --parallel, as
    many proofs as there are cores (a given --parallel still wins)."""
    import os

    repo = repo_kit.GitRepo(tmp_path / "notes")
    repo.commit("Start", {"NOTES.md": "one\n"})
    repo.commit("More", {"NOTES.md": "two\n"})
    default = _garuda(repo.root, "--from-git", "--test-command", "node --test {files}")
    assert f"Up to {os.cpu_count()} proof(s)" in default.stdout, default.stdout + default.stderr
    given = _garuda(repo.root, "--from-git", "--parallel", "1", "--test-command", "node --test")
    assert "Up to 1 proof(s)" in given.stdout, given.stdout + given.stderr
