"""The harness's overhead: ``garuda eval --agent oracle -s SUITE`` against its judge's checks run directly.

Usage: python bench/harness_overhead.py [--suite python] [--rounds 5] [--repeat 20]
                                        [--executor auto] [--against DIR]

The floor is the judge's own check, run directly: for each run of a task, a folder prepared
the way the judge prepares its fresh copy (the task's files, the reference solution carried
in, the runner's canary file, the held-out tests and their canaries written under the names
the judge draws, the bytecode-cache locks and read-only protected files), then the judge's
command line for it (``bash -c`` with the check command, ``{canaries}`` and ``{junit}``
filled in) run with ``subprocess`` in the check environment: no ``garuda`` process, no
executor (neither the host executor's reaper nor a sandbox). Only the commands are timed;
preparing the folders is not. It is ``judged(reaper=False)`` of ``bench/check_cost.py``.

Each round measures, in a rotating order so that machine load hits all alike:

1. the floor of ``--repeat N``: every task's judged check run directly N times;
2. ``garuda eval --agent oracle -s SUITE --repeat N`` (the probe cache as normal runs use it,
   filled by one eval before the first round);
3. five tasks cold: ``garuda eval --agent oracle -s SUITE`` once, a fresh process with its
   probe cache and entry-point cache in an empty folder (``GARUDA_PROBE_CACHE``,
   ``GARUDA_ENTRY_POINT_CACHE``), against the floor of one check per task (the floor of
   step 1 divided by N: the same round's checks);
4. the judge's check against the plain check: ``judge (as garuda runs it)`` and ``plain
   (the check command alone)`` of ``bench/check_cost.py``, each task's two one after the
   other in turns of order, four times over (CPU per check).

Prints the medians and the three ratios with their goals (``--repeat N`` at most 1.05x the
floor, five tasks cold at most 1.25x, the judge's check at most 1.10x the plain check). Wall
time and CPU time (user + system of every process waited for) are both printed. The eval's
ratios are judged by CPU with ``--executor host`` (on a shared machine wall time mostly
measures the load) and by wall time otherwise: commands under the OS sandbox are reaped
inside bwrap's namespace and their CPU is not counted. ``auto`` (the default, as a user runs
``garuda eval``) is the OS sandbox where one works. Both sides run without
PYTHONDONTWRITEBYTECODE (with it, every ``garuda`` start compiles its modules anew).

``--against DIR`` (another checkout of garuda-evals, main for example) runs steps 2 and 3
with that checkout's code as well, in the same rounds (this environment's ``garuda`` with
DIR's ``core/src``, ``plugins/*/src`` and ``examples/*/src`` first on ``PYTHONPATH``, which
the checks' environment does not pass on), and prints its ratios beside: before and after a
change, measured side by side.
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
from collections.abc import Callable
from pathlib import Path

from check_cost import PLAIN, VARIANTS, WITH, judged, run_check

from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.runner.selection import Selected, select

GARUDA = str(Path(sys.executable).parent / "garuda")
GOALS = {"repeat": 1.05, "cold": 1.25, "check": 1.10}
"""The issue's goals: each ratio at most this."""
FLOOR = judged(reaper=False)

Times = tuple[float, float]
"""Wall and CPU seconds."""


def _environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, **extra}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def sources_of(checkout: Path) -> dict[str, str]:
    """The environment that makes this ``garuda`` run ``checkout``'s code."""
    found = [checkout / "core" / "src", *sorted(checkout.glob("plugins/*/src"))]
    found += sorted(checkout.glob("examples/*/src"))
    return {"PYTHONPATH": os.pathsep.join(str(path) for path in found)}


def run_eval(argv: list[str], project: Path, env: dict[str, str]) -> Times:
    """Wall and CPU time of one whole ``garuda eval`` through its console script."""
    started, cpu = time.perf_counter(), _children_cpu()
    result = subprocess.run(argv, cwd=project, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"garuda eval failed ({result.returncode}):\n{result.stderr[-2000:]}")
    return elapsed, _children_cpu() - cpu


def run_floor(items: list[Selected], repeat: int) -> Times:
    """The judge's checks of ``repeat`` runs of every task, run directly."""
    wall = cpu = 0.0
    for _ in range(repeat):
        for item in items:
            took = run_check(FLOOR, item)
            wall, cpu = wall + took[0], cpu + took[1]
    return wall, cpu


def run_checks(items: list[Selected], passes: int = 4) -> Times:
    """CPU per check of the judge's check and the plain check, over every task ``passes``
    times, each task's two checks one after the other in turns of order."""
    judge = plain = 0.0
    for index in range(passes * len(items)):
        item = items[index % len(items)]
        pair = [VARIANTS[WITH], VARIANTS[PLAIN]]
        first, second = pair if index % 2 == 0 else pair[::-1]
        used = run_check(first, item)[1], run_check(second, item)[1]
        judged_cpu, plain_cpu = used if index % 2 == 0 else used[::-1]
        judge, plain = judge + judged_cpu, plain + plain_cpu
    return judge / (passes * len(items)), plain / (passes * len(items))


def cold_eval(argv: list[str], project: Path, code: dict[str, str]) -> Times:
    """One eval with empty caches, a fresh folder for them each time."""
    caches = Path(tempfile.mkdtemp(prefix="bench-caches-"))
    try:
        env = _environment(
            **code,
            GARUDA_PROBE_CACHE=str(caches / "probes.json"),
            GARUDA_ENTRY_POINT_CACHE=str(caches / "entry-points.json"),
        )
        return run_eval(argv, project, env)
    finally:
        shutil.rmtree(caches, ignore_errors=True)


def _median(samples: list[Times]) -> Times:
    return statistics.median(w for w, _ in samples), statistics.median(c for _, c in samples)


def _verdict(ratio: float, goal: float) -> str:
    return f"goal {goal:.2f}x: {'met' if ratio <= goal else 'NOT met'}"


def main() -> None:
    """Measure interleaved rounds and print the medians and the three ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="python")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--executor", default="auto", choices=["auto", "os", "host"])
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    args = parser.parse_args()
    if Path(args.suite).exists():
        args.suite = str(Path(args.suite).resolve())
    items = select(PluginRegistry(), [args.suite], [])
    base = [GARUDA, "eval", "--agent", "oracle", "-s", args.suite, "--executor", args.executor]
    repeated = [*base, "--repeat", str(args.repeat)]
    codes = {"this checkout": {}}
    if args.against:
        codes[str(args.against)] = sources_of(args.against.resolve())
    floors: list[Times] = []
    evals: dict[str, list[Times]] = {name: [] for name in codes}
    colds: dict[str, list[Times]] = {name: [] for name in codes}
    checks: list[Times] = []
    project = Path(tempfile.mkdtemp(prefix="bench-project-"))
    steps: list[Callable[[], None]] = [
        lambda: floors.append(run_floor(items, args.repeat)),
        lambda: checks.append(run_checks(items)),
    ]
    for name, code in codes.items():
        steps.append(
            lambda name=name, code=code: evals[name].append(
                run_eval(repeated, project, _environment(**code))
            )
        )
        steps.append(
            lambda name=name, code=code: colds[name].append(cold_eval(base, project, code))
        )
    try:
        for code in codes.values():  # the probe cache filled, as in normal use
            run_eval(base, project, _environment(**code))
        for round_index in range(args.rounds):
            shift = round_index % len(steps)
            for step in steps[shift:] + steps[:shift]:
                step()
            print(f"round {round_index + 1} of {args.rounds} done", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(project, ignore_errors=True)
    report(args, len(items), floors, evals, colds, checks)


def report(
    args: argparse.Namespace,
    tasks: int,
    floors: list[Times],
    evals: dict[str, list[Times]],
    colds: dict[str, list[Times]],
    checks: list[Times],
) -> None:
    """Print the medians and the ratios against the floor, each with its goal."""
    by_cpu = args.executor == "host"
    kind = "cpu" if by_cpu else "wall"
    n = args.repeat
    floor = _median(floors)
    one = _median([(w / n, c / n) for w, c in floors])
    judge = statistics.median(j for j, _ in checks)
    plain = statistics.median(p for _, p in checks)
    print(f"suite {args.suite} ({tasks} tasks), --executor {args.executor}, {args.rounds} rounds,")
    print("medians (wall | CPU); the floor is the judge's checks run directly:")
    rows = [(f"floor, {n} x {tasks} checks", floor), (f"floor, {tasks} checks", one)]
    for name in evals:
        rows.append((f"garuda eval --repeat {n} ({name})", _median(evals[name])))
        rows.append((f"garuda eval, {tasks} tasks cold ({name})", _median(colds[name])))
    for label, (wall, cpu) in rows:
        print(f"  {label:<48}: {wall:7.2f} s | {cpu:7.2f} s cpu")
    label = "judge check / plain check"
    print(f"  {label:<48}: {judge * 1000:.1f} ms / {plain * 1000:.1f} ms cpu")
    print("ratios:")
    for name in evals:
        for label, goal, (wall, cpu), (floor_wall, floor_cpu) in (
            (f"--repeat {n} / floor ({name})", GOALS["repeat"], _median(evals[name]), floor),
            (f"{tasks} tasks cold / floor ({name})", GOALS["cold"], _median(colds[name]), one),
        ):
            ratio = cpu / floor_cpu if by_cpu else wall / floor_wall
            print(
                f"  {label:<48}: {wall / floor_wall:5.3f}x wall, {cpu / floor_cpu:5.3f}x cpu   "
                f"{_verdict(ratio, goal)} ({kind})"
            )
    check_goal = _verdict(judge / plain, GOALS["check"])
    print(f"  {'judge check / plain check':<48}: {judge / plain:5.3f}x cpu   {check_goal} (cpu)")


if __name__ == "__main__":
    main()
