"""The harness's overhead: ``garuda eval --agent oracle -s SUITE`` against its checks run directly.

Usage: python bench/harness_overhead.py [--suite python] [--rounds 3] [--repeats 1,20]
                                        [--executors host,os] [--reprobe]
The floor is the same checks run directly: each task written to a scratch folder with its
reference solution and its check command run with subprocess, one after another (``--repeat
N`` times each). Every round runs, interleaved so that machine load hits all alike, for each
repeat count: the floor, then the eval with each executor (``os`` is the OS sandbox, bwrap on
Linux). Prints the medians side by side and each eval's ratio to the floor of its repeat count.

Both sides run as a user's shell would: PYTHONDONTWRITEBYTECODE is removed from their
environment (where it is set, every ``garuda`` start compiles its modules anew). The probe
cache is used as in normal runs (the first run fills it); ``--reprobe`` passes ``--reprobe``
to every eval to measure runs that probe.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GARUDA = str(Path(sys.executable).parent / "garuda")
GOALS = {1: 1.10, 20: 1.03}
"""The issue's goals: the eval at most this many times the floor, per repeat count."""


def _environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_eval(suite: str, project: Path, executor: str, repeat: int, reprobe: bool) -> float:
    """Wall time of one whole ``garuda eval`` through its console script."""
    argv = [GARUDA, "eval", "--agent", "oracle", "-s", suite, "--executor", executor]
    argv += ["--repeat", str(repeat)] + (["--reprobe"] if reprobe else [])
    started = time.perf_counter()
    result = subprocess.run(argv, cwd=project, capture_output=True, text=True, env=_environment())
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"garuda eval failed ({result.returncode}):\n{result.stderr[-2000:]}")
    return elapsed


def floor_script(suite: str, repeat: int) -> str:
    """A child interpreter's script: the tasks written out and their checks run directly."""
    return f"""
import shutil, subprocess, sys, tempfile, time
from pathlib import Path
from garuda_evals.agents.oracle import apply_solution
from garuda_evals.environment import check_environment
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.runner.selection import select
selected = select(PluginRegistry(), [{suite!r}], [])
env = check_environment()
started = time.perf_counter()
for _ in range({repeat}):
    for item in selected:
        workspace = Path(tempfile.mkdtemp(prefix="bench-direct-"))
        try:
            item.suite.materialize(item.task, workspace)
            apply_solution(workspace, item.task.solution)
            command = item.task.check.command.replace("{{junit}}", str(workspace / "junit.xml"))
            done = subprocess.run(["bash", "-c", command], cwd=workspace, env=env,
                                  capture_output=True)
            if done.returncode != 0:
                sys.exit(f"direct check of {{item.task.id}} failed: {{done.stdout[-2000:]!r}}")
        finally:
            shutil.rmtree(workspace, ignore_errors=True)
print(time.perf_counter() - started)
"""


def run_floor(suite: str, repeat: int) -> float:
    """The checks' own time (measured in a child, so that both sides see the same environment)."""
    done = subprocess.run(
        [sys.executable, "-c", floor_script(suite, repeat)],
        capture_output=True,
        text=True,
        env=_environment(),
    )
    if done.returncode != 0:
        sys.exit(f"the floor failed:\n{done.stderr[-2000:]}")
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    """Measure interleaved rounds and print the medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="python")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", default="1", help="repeat counts, comma-separated (1,20)")
    parser.add_argument("--executors", default="host", help="executors, comma-separated (host,os)")
    parser.add_argument("--reprobe", action="store_true", help="pass --reprobe to every eval")
    args = parser.parse_args()
    if Path(args.suite).exists():
        args.suite = str(Path(args.suite).resolve())
    repeats = [int(part) for part in args.repeats.split(",")]
    executors = [part.strip() for part in args.executors.split(",")]
    floors: dict[int, list[float]] = {n: [] for n in repeats}
    evals: dict[tuple[int, str], list[float]] = {(n, e): [] for n in repeats for e in executors}
    project = Path(tempfile.mkdtemp(prefix="bench-project-"))
    try:
        for _ in range(args.rounds):
            for n in repeats:
                floors[n].append(run_floor(args.suite, n))
                for executor in executors:
                    elapsed = run_eval(args.suite, project, executor, n, args.reprobe)
                    evals[(n, executor)].append(elapsed)
    finally:
        shutil.rmtree(project, ignore_errors=True)
    print(f"suite {args.suite}, {args.rounds} interleaved rounds, medians:")
    for n in repeats:
        floor = statistics.median(floors[n])
        print(f"  --repeat {n:<3} the same checks directly      : {floor:7.2f} s")
        for executor in executors:
            took = statistics.median(evals[(n, executor)])
            goal = GOALS.get(n)
            verdict = f"  goal {goal:.2f}x {'met' if took / floor <= goal else 'NOT met'}"
            print(
                f"  --repeat {n:<3} garuda eval --executor {executor:<5}: {took:7.2f} s  "
                f"ratio {took / floor:5.2f}x  ({took - floor:+.2f} s){verdict if goal else ''}"
            )


if __name__ == "__main__":
    main()
