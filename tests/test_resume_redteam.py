"""Cheats on ``--resume``, played as agent commands through the real CLI under bwrap."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from garuda_evals.testing import skip_or_fail

REPO = Path(__file__).resolve().parents[1]
MINI = REPO / "core" / "tests" / "suite_data" / "mini"
GARUDA = str(Path(sys.executable).parent / "garuda")


def _eval(project: Path, command: str, *extra: str) -> subprocess.CompletedProcess[str]:
    agent = ["--agent", "command", "--agent-command", command]
    return subprocess.run(
        [GARUDA, "eval", *agent, "-s", str(MINI), "-t", "add", "--executor", "os", *extra],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def outside(tmp_path: Path):
    """A project and a folder beside it, both outside /tmp (which the sandbox replaces)."""
    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "apt-get install bubblewrap")
    base = Path("/var/tmp") / f"garuda-resume-{tmp_path.name}"
    shutil.rmtree(base, ignore_errors=True)
    (base / "project" / ".git").mkdir(parents=True)
    (base / "runs").mkdir()
    yield base
    shutil.rmtree(base, ignore_errors=True)


def test_a_resumed_run_kept_outside_the_project_is_hidden_from_the_agent(outside: Path) -> None:
    """Cheat: the run folder holds every earlier run's transcript and stored change (a
    repeat that passed is the answer). Resumed by its path from outside the project, it is
    not the hidden project, but the sandbox shows an allow-list, so it is absent anyway:
    the agent solves only if it can read the run's ``run.json``."""
    project, runs = outside / "project", outside / "runs"
    peek = f"cat {runs}/*/run.json > /dev/null && sed -i 's/a - b/a + b/' src/calc.py"
    first = _eval(project, peek)
    assert first.returncode == 2, first.stderr  # nothing to peek at yet
    (run,) = (project / ".garuda" / "evals").iterdir()
    moved = runs / run.name
    shutil.move(run, moved)
    (moved / "results.jsonl").unlink()  # as if the first run had been killed
    resumed = _eval(project, peek, "--resume", str(moved))
    rows = [json.loads(line) for line in (moved / "results.jsonl").read_text().splitlines()]
    assert [row["status"] for row in rows] == ["FAIL"], resumed.stderr
    assert "executor: bwrap" in resumed.stderr
