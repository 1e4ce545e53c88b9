"""Counts read as English: ``1 step``, ``1 file``, ``1 task``; an unknown count is ``?``."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from garuda_evals.models.result import Status, TaskResult
from garuda_evals.report.units import counted
from garuda_evals.runner.live import LiveOutput

FakeDist = Callable[..., Path]
GARUDA = [sys.executable, "-c", "from garuda_evals.cli.main import entry; entry()"]
ONE_TASK_PLUGIN = """
import os
from pathlib import Path

from garuda_evals.hookspecs import hookimpl
from garuda_evals.records import SuiteRecord
from garuda_evals.suites.folder import load_folder_suite


@hookimpl
def garuda_suites():
    yield SuiteRecord(
        name="single",
        description="one task",
        load=lambda: load_folder_suite(Path(os.environ["ONE_TASK_SUITE"])),
    )
"""


@pytest.mark.parametrize(
    ("count", "shown"), [(0, "0 steps"), (1, "1 step"), (2, "2 steps"), (None, "? steps")]
)
def test_counted(count: int | None, shown: str) -> None:
    assert counted(count, "step") == shown


@pytest.mark.parametrize(("steps", "shown"), [(1, "1 step"), (3, "3 steps"), (None, "? steps")])
def test_a_finished_runs_line_counts_its_steps(steps: int | None, shown: str) -> None:
    stream = io.StringIO()
    LiveOutput(1, stream=stream).result(
        "s/t", TaskResult(task="t", suite="s", repeat=1, status=Status.PASS, steps=steps)
    )
    assert stream.getvalue().startswith(f"[s/t] PASS · {shown} · ")


def test_list_counts_one_task_as_one_task(
    fake_dist: FakeDist, mini_suite: Path, tmp_path: Path
) -> None:
    shutil.rmtree(mini_suite / "greet")
    site = fake_dist("garuda-evals-single", {"garuda_evals": {"single": "single_plugin"}},
                     {"single_plugin.py": ONE_TASK_PLUGIN})  # fmt: skip
    done = subprocess.run(
        [*GARUDA, "eval", "--list"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(site), "ONE_TASK_SUITE": str(mini_suite)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if line.split()[:1] == ["single"])
    assert line.split()[1:4] == ["1", "task", "·"], line
