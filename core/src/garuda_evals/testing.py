"""Helpers for the self-tests of suites and plugins (used by tests, not by runs)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
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
