"""Helpers for the self-tests of suites and plugins (used by tests, not by runs)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

from garuda_evals.agents.oracle import apply_solution
from garuda_evals.checks.protected import snapshot
from garuda_evals.environment import check_environment
from garuda_evals.executors.base import Executor
from garuda_evals.executors.host import HostExecutor
from garuda_evals.models.task import Task
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.runner.check import Verdict, judge
from garuda_evals.suites.base import Suite

REQUIRE_VAR = "GARUDA_REQUIRE_TOOLS"
GARUDA_SCRIPT = Path(sys.executable).parent / "garuda"
STATUSES = ("PASS", "FAIL", "ERR")


def run_garuda(
    *args: str, cwd: Path, env: Mapping[str, str] | None = None, timeout: float = 900
) -> subprocess.CompletedProcess[str]:
    """Run the installed ``garuda`` script as a user would; ``env`` replaces the environment."""
    return subprocess.run(
        [str(GARUDA_SCRIPT), *args],
        cwd=cwd,
        env=dict(os.environ if env is None else env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def only_report(cwd: Path, context: str = "") -> dict:
    """The one report.json a run wrote under ``cwd``; fails when there is none or several."""
    reports = sorted(cwd.glob(".garuda/evals/*/report.json"))
    assert len(reports) == 1, context or f"{len(reports)} reports under {cwd}"
    return json.loads(reports[0].read_text(encoding="utf-8"))


def result_rows(stdout: str, suite: str | None = None) -> dict[str, str]:
    """The table's rows as ``suite/task -> PASS|FAIL|ERR`` (``task ->`` with ``suite``)."""
    rows: dict[str, str] = {}
    for line in stdout.splitlines():
        cells = line.split()
        if len(cells) < 2 or cells[1] not in STATUSES or "/" not in cells[0]:
            continue
        if suite is None:
            rows[cells[0]] = cells[1]
        elif cells[0].startswith(f"{suite}/"):
            rows[cells[0].removeprefix(f"{suite}/")] = cells[1]
    return rows


def required_tools() -> set[str]:
    """Tools that CI marks required (``GARUDA_REQUIRE_TOOLS=bwrap,maven,node``)."""
    return {t.strip() for t in os.environ.get(REQUIRE_VAR, "").split(",") if t.strip()}


def skip_or_fail(tool: str, reason: str) -> None:
    """Skip the test when ``tool`` is missing here; fail it when CI requires the tool."""
    import pytest

    if tool in required_tools() or "all" in required_tools():
        pytest.fail(f"{tool} is required here ({REQUIRE_VAR}) but missing: {reason}")
    pytest.skip(f"{tool} missing: {reason}")


def check_runner_for(task: Task, registry: PluginRegistry | None = None):  # type: ignore[no-untyped-def]
    """The check runner a task names, loaded from the installed plugins."""
    registry = registry or PluginRegistry()
    return registry.collect("garuda_check_runners")[task.check.runner].record.load()


async def self_test(
    suite: Suite,
    task: Task,
    *,
    solved: bool,
    edit: Callable[[Path], None] | None = None,
    executor: Executor | None = None,
    timeout_s: float | None = None,
) -> Verdict:
    """Materialize ``task``, apply its solution when ``solved``, then ``edit``, then judge.

    ``edit`` lets a test play a cheat (edit a test, add a conftest.py) on the workspace.
    """
    workspace = Path(tempfile.mkdtemp(prefix=f"garuda-selftest-{task.id}-"))
    try:
        suite.materialize(task, workspace)
        before = snapshot(workspace, task.protected)
        if solved:
            assert task.solution is not None, f"{task.id} has no reference solution"
            apply_solution(workspace, task.solution)
        if edit is not None:
            edit(workspace)
        return await judge(
            task,
            workspace,
            before=before,
            executor=executor or HostExecutor(),
            runner=check_runner_for(task),
            env=check_environment(),
            timeout_s=timeout_s,
        )
    finally:
        suite.release(task, workspace)
        shutil.rmtree(workspace, ignore_errors=True)
