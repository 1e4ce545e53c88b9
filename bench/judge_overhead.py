"""The cost of judging in a fresh copy, side by side with a check run in the agent's folder.

Usage: python bench/judge_overhead.py [--suite python] [--rounds 5]
Each round takes every task of the suite with its reference solution applied and judges it
twice, one after the other: (a) the full judge (fresh copy, the change carried in, refusals,
canaries, pinned tests, read-only protected files, the protected files compared after the
check), (b) the check command alone in the agent's folder (the judge before fresh copies).
Both use the host executor. Prints the medians per round and the ratio a/b.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import anyio

from garuda_evals.agents.oracle import apply_solution
from garuda_evals.checks.protected import snapshot
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.runner.selection import select
from garuda_evals.testing import check_in_place, check_runner_for, self_test


async def judged_in_copy(items: list) -> float:
    started = time.perf_counter()
    for item in items:
        verdict = await self_test(item.suite, item.task, solved=True)
        assert verdict.passed, (item.task.id, verdict.reason)
    return time.perf_counter() - started


async def checked_in_place(items: list) -> float:
    started = time.perf_counter()
    for item in items:
        workspace = Path(tempfile.mkdtemp(prefix="bench-in-place-"))
        try:
            item.suite.materialize(item.task, workspace)
            snapshot(workspace, item.task.protected)
            apply_solution(workspace, item.task.solution)
            verdict = await check_in_place(item.task, workspace, runner=check_runner_for(item.task))
            snapshot(workspace, item.task.protected)
            assert verdict.passed, (item.task.id, verdict.reason)
        finally:
            shutil.rmtree(workspace, ignore_errors=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--suite", default="python")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    items = select(PluginRegistry(), [args.suite], [])
    copy, in_place = [], []
    for _ in range(args.rounds):
        copy.append(anyio.run(judged_in_copy, items))
        in_place.append(anyio.run(checked_in_place, items))
    a, b = statistics.median(copy), statistics.median(in_place)
    print(f"suite {args.suite}, {len(items)} tasks, {args.rounds} rounds, medians per round:")
    print(f"  judged in a fresh copy     : {a:6.2f} s")
    print(f"  checked in the agent folder: {b:6.2f} s")
    print(
        f"  ratio                      : {a / b:6.2f}x  ({(a - b) / len(items) * 1000:+.0f} ms per task)"
    )


if __name__ == "__main__":
    main()
