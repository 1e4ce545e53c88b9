"""The cost of keeping each run's change, side by side with judging that run.

Usage: python bench/change_overhead.py [--suite python] [--rounds 3]
Each round takes every task of the suite and (a) keeps the change the way a run does: a git
snapshot of the fresh task folder, the reference solution applied, a second snapshot and the
binary diff; (b) judges the solved task in a fresh copy (what every run pays already). Both on
the host. Prints the medians per round and the ratio a/b.
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
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.runner.selection import Selected, select
from garuda_evals.runner.stored_change import ChangeRecorder
from garuda_evals.testing import self_test


async def kept(items: list[Selected]) -> float:
    started = time.perf_counter()
    for item in items:
        workspace = Path(tempfile.mkdtemp(prefix="bench-change-"))
        recorder = ChangeRecorder()
        try:
            item.suite.materialize(item.task, workspace)
            before = await recorder.snapshot(workspace)
            if item.task.solution is not None:
                apply_solution(workspace, item.task.solution)
            patch = await recorder.diff(before, await recorder.snapshot(workspace), workspace)
            assert patch or item.task.solution is None, item.task.id
        finally:
            recorder.close()
            item.suite.release(item.task, workspace)
            shutil.rmtree(workspace, ignore_errors=True)
    return time.perf_counter() - started


async def judged(items: list[Selected]) -> float:
    started = time.perf_counter()
    for item in items:
        verdict = await self_test(item.suite, item.task, solved=True)
        assert verdict.passed, (item.task.id, verdict.reason)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--suite", default="python")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    items = select(PluginRegistry(), [args.suite], [])
    keep, judge = [], []
    for _ in range(args.rounds):
        keep.append(anyio.run(kept, items))
        judge.append(anyio.run(judged, items))
    a, b = statistics.median(keep), statistics.median(judge)
    print(f"suite {args.suite}, {len(items)} tasks, {args.rounds} rounds, medians per round:")
    print(f"  change kept (2 snapshots + diff): {a:6.2f} s")
    print(f"  judged in a fresh copy          : {b:6.2f} s")
    print(
        f"  ratio                           : {a / b:6.2f}x  "
        f"({a / len(items) * 1000:.0f} ms per task to keep the change)"
    )


if __name__ == "__main__":
    main()
