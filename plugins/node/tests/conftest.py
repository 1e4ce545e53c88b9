"""Fixtures of the node plugin's tests: the toolchain gate and concurrent self-tests."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest

from garuda_evals.runner.check import Verdict
from garuda_evals.suites.base import Suite
from garuda_evals.testing import self_test, skip_or_fail
from garuda_evals_node.toolchain import HINT

CONCURRENCY = 3


def require_node() -> None:
    """Skip (or fail under GARUDA_REQUIRE_TOOLS) when node is not on PATH."""
    if shutil.which("node") is None:
        skip_or_fail("node", HINT)


Edit = Callable[[Path], None] | None


def run_self_tests(
    suite: Suite, cases: list[tuple[str, bool, Edit]]
) -> dict[tuple[str, bool, str], Verdict]:
    """Self-test ``(task id, solved, edit)`` cases concurrently; key: (id, solved, edit name)."""
    tasks = {task.id: task for task in suite.tasks()}
    verdicts: dict[tuple[str, bool, str], Verdict] = {}

    async def one(limiter: anyio.CapacityLimiter, task_id: str, solved: bool, edit: Edit) -> None:
        async with limiter:
            name = getattr(edit, "__name__", "none") if edit else "none"
            verdicts[(task_id, solved, name)] = await self_test(
                suite, tasks[task_id], solved=solved, edit=edit
            )

    async def main() -> None:
        limiter = anyio.CapacityLimiter(CONCURRENCY)
        async with anyio.create_task_group() as group:
            for task_id, solved, edit in cases:
                group.start_soon(one, limiter, task_id, solved, edit)

    anyio.run(main)
    return verdicts


@pytest.fixture(scope="session")
def node() -> str:
    """The path of node; skips (or fails in CI) when node is missing."""
    require_node()
    return shutil.which("node") or "node"


@pytest.fixture(scope="session")
def self_tests() -> Callable[..., dict[tuple[str, bool, str], Verdict]]:
    """``run_self_tests`` as a fixture."""
    return run_self_tests
