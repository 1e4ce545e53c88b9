"""The harness's overhead: ``garuda eval --agent oracle -s SUITE`` against its checks run directly.

Usage: python bench/harness_overhead.py [--suite python] [--rounds 3] [--repeats 1,20]
                                        [--executors host,os] [--reprobe]
The floor is the same checks run directly: each task written to a scratch folder with its
reference solution and its check command run with subprocess, one after another (``--repeat
N`` times each). Every round runs, interleaved so that machine load hits all alike, for each
repeat count: the floor, then the eval with each executor (``os`` is the OS sandbox, bwrap on
Linux). Prints the medians side by side and each eval's ratio to the floor of its repeat count,
in wall time and in CPU time (user + system of every process it waited for: the checks, git,
bwrap). On a shared, loaded machine wall time mostly measures the load; CPU time is what the
harness itself costs. The CPU of commands run under the OS sandbox is not counted (bwrap reaps
them inside its own namespace), so the goal of a sandboxed eval is judged by wall time.

Both sides run as a user's shell would: PYTHONDONTWRITEBYTECODE is removed from their
environment (where it is set, every ``garuda`` start compiles its modules anew). The probe
cache is used as in normal runs (the first run fills it); ``--reprobe`` passes ``--reprobe``
to every eval to measure runs that probe.
"""

from __future__ import annotations

import argparse
import os
import resource
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


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_eval(
    suite: str, project: Path, executor: str, repeat: int, reprobe: bool
) -> tuple[float, float]:
    """Wall and CPU time of one whole ``garuda eval`` through its console script."""
    argv = [GARUDA, "eval", "--agent", "oracle", "-s", suite, "--executor", executor]
    argv += ["--repeat", str(repeat)] + (["--reprobe"] if reprobe else [])
    started, cpu = time.perf_counter(), _children_cpu()
    result = subprocess.run(argv, cwd=project, capture_output=True, text=True, env=_environment())
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"garuda eval failed ({result.returncode}):\n{result.stderr[-2000:]}")
    return elapsed, _children_cpu() - cpu


def floor_script(suite: str, repeat: int) -> str:
    """A child interpreter's script: the tasks written out and their checks run directly."""
    return f"""
import resource, shutil, subprocess, sys, tempfile, time
from pathlib import Path
from garuda_evals.agents.oracle import apply_solution
from garuda_evals.environment import check_environment
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.runner.selection import select
selected = select(PluginRegistry(), [{suite!r}], [])
env = check_environment()
def cpu():
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
started, cpu_started = time.perf_counter(), cpu()
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
print(time.perf_counter() - started, cpu() - cpu_started)
"""


def run_floor(suite: str, repeat: int) -> tuple[float, float]:
    """The checks' own wall and CPU time (measured in a child, so that both sides see the same
    environment; its own start and imports are not counted)."""
    done = subprocess.run(
        [sys.executable, "-c", floor_script(suite, repeat)],
        capture_output=True,
        text=True,
        env=_environment(),
    )
    if done.returncode != 0:
        sys.exit(f"the floor failed:\n{done.stderr[-2000:]}")
    wall, cpu = done.stdout.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


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
    floors: dict[int, list[tuple[float, float]]] = {n: [] for n in repeats}
    evals: dict[tuple[int, str], list[tuple[float, float]]] = {
        (n, e): [] for n in repeats for e in executors
    }
    project = Path(tempfile.mkdtemp(prefix="bench-project-"))
    try:
        for _ in range(args.rounds):
            for n in repeats:
                floors[n].append(run_floor(args.suite, n))
                for executor in executors:
                    took = run_eval(args.suite, project, executor, n, args.reprobe)
                    evals[(n, executor)].append(took)
    finally:
        shutil.rmtree(project, ignore_errors=True)
    print(f"suite {args.suite}, {args.rounds} interleaved rounds, medians (wall | CPU):")
    for n in repeats:
        wall = statistics.median(w for w, _ in floors[n])
        cpu = statistics.median(c for _, c in floors[n])
        print(f"  --repeat {n:<3} the checks directly       : {wall:7.2f} s | {cpu:7.2f} s cpu")
        for executor in executors:
            took = statistics.median(w for w, _ in evals[(n, executor)])
            used = statistics.median(c for _, c in evals[(n, executor)])
            goal = GOALS.get(n)
            line = (
                f"  --repeat {n:<3} garuda eval --executor {executor:<4}: {took:7.2f} s | "
                f"{used:7.2f} s cpu   ratio {took / wall:5.2f}x wall, {used / cpu:5.2f}x cpu"
            )
            if goal:
                # A sandbox's processes are not waited for by garuda (bwrap reaps them inside
                # its namespace): their CPU is not in the count, so only wall time compares.
                ratio, kind = (used / cpu, "cpu") if executor == "host" else (took / wall, "wall")
                met = "met" if ratio <= goal else "NOT met"
                line += f"   goal {goal:.2f}x ({kind}): {met}"
            print(line)


if __name__ == "__main__":
    main()
