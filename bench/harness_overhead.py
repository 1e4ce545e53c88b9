"""The harness's overhead: ``garuda eval --agent oracle -s SUITE`` against its checks run directly.

Usage: python bench/harness_overhead.py [--suite python] [--rounds 3]
Each round runs both, side by side: (a) the whole eval through the CLI, (b) the same tasks
written to scratch folders with their reference solutions and their check commands run one
after another with subprocess. Prints the medians and the ratio a/b.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from garuda_evals.agents.oracle import apply_solution
from garuda_evals.environment import check_environment
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.runner.selection import select

GARUDA = str(Path(sys.executable).parent / "garuda")


def run_eval(suite: str, project: Path) -> float:
    started = time.perf_counter()
    result = subprocess.run(
        [GARUDA, "eval", "--agent", "oracle", "-s", suite, "--executor", "host"],
        cwd=project,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"garuda eval failed ({result.returncode}):\n{result.stderr[-2000:]}")
    return elapsed


def run_checks_directly(suite: str) -> float:
    selected = select(PluginRegistry(), [suite], [])
    env = check_environment()
    started = time.perf_counter()
    for item in selected:
        workspace = Path(tempfile.mkdtemp(prefix="bench-direct-"))
        try:
            item.suite.materialize(item.task, workspace)
            assert item.task.solution is not None
            apply_solution(workspace, item.task.solution)
            command = item.task.check.command.replace("{junit}", str(workspace / "junit.xml"))
            done = subprocess.run(
                ["bash", "-c", command], cwd=workspace, env=env, capture_output=True
            )
            if done.returncode != 0:
                sys.exit(f"direct check of {item.task.id} failed:\n{done.stdout[-2000:]!r}")
        finally:
            shutil.rmtree(workspace, ignore_errors=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--suite", default="python")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if Path(args.suite).exists():
        args.suite = str(Path(args.suite).resolve())
    harness, direct = [], []
    with tempfile.TemporaryDirectory(prefix="bench-project-") as project:
        for _ in range(args.rounds):
            harness.append(run_eval(args.suite, Path(project)))
            direct.append(run_checks_directly(args.suite))
    h, d = statistics.median(harness), statistics.median(direct)
    print(f"suite {args.suite}, {args.rounds} rounds, medians:")
    print(f"  garuda eval --agent oracle : {h:6.2f} s")
    print(f"  the same checks directly   : {d:6.2f} s")
    print(f"  overhead ratio             : {h / d:6.2f}x  ({h - d:+.2f} s per run)")


if __name__ == "__main__":
    main()
