"""The CPU of one check as the judge runs it, against the plain check, with each addition left out.

Usage: python bench/check_cost.py [--suite python] [--rounds 10]
Every round runs each variant once over all the suite's tasks (reference solutions applied),
in a rotating order so that machine load hits all alike, each check in a folder of its own:

- plain: the task written out with its solution (the agent's folder) and its check command
  run there with ``bash -c``;
- judge: the judge's own preparation (fresh copy, canaries, locked bytecode caches, read-only
  protected files) and the host executor's command line (the reaper, then ``bash -c``);
- judge, no reaper / no reaper nor canaries / no reaper nor cache locks: the same with those
  parts left out, so that each one's cost is the difference between two rows;
- judge before held-out tests: the judge as it was before tasks had held-out tests and their
  canaries, with pytest's long tracebacks (``--tb=line`` came with them); the ratio of the
  judge to it is printed, then the judge's to the plain check's.

``bench/harness_overhead.py`` takes its floor (``judged(reaper=False)``) and its third ratio
(judge ÷ plain) from here.

Prints the median CPU per check (user + system of the check's processes, from
``RUSAGE_CHILDREN``) of each variant and its difference from the plain check. Only the check's own
processes are counted: the preparation runs in this process.
"""

from __future__ import annotations

import argparse
import resource
import secrets
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from garuda_evals.agents.oracle import apply_solution
from garuda_evals.environment import ENV_ALLOW, check_environment
from garuda_evals.executors.base import SandboxPolicy
from garuda_evals.executors.host import SHELL, HostBackend
from garuda_evals.executors.process import reaper_available, under_reaper
from garuda_evals.judging.judge import Judge, Verdict, _prepare
from garuda_evals.models.task import Task
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.removal import remove_tree
from garuda_evals.runner.selection import Selected, select
from garuda_evals.testing import check_runner_for

Variant = Callable[[Selected, Path], tuple[list[str], int]]
"""Prepares ``folder`` for one task; returns the command line and the exit code it must give."""


def plain(item: Selected, folder: Path) -> tuple[list[str], int]:
    """The task's files and solution, its check command as it stands."""
    item.suite.materialize(item.task, folder)
    apply_solution(folder, item.task.solution)
    command = item.task.check.command.replace("{junit}", str(folder / "junit.xml"))
    return ["bash", "-c", command], 0


def before_held_out(task: Task) -> Task:
    """``task`` as it was before held-out tests: none, and pytest's long tracebacks."""
    check = task.check.model_copy(update={"command": task.check.command.replace(" --tb=line", "")})
    return task.model_copy(update={"held_out": None, "check": check})


def judged(
    *, reaper: bool = True, canaries: bool = True, locks: bool = True, held_out: bool = True
) -> Variant:
    """The judge's folder and command line, less the parts switched off."""

    def prepare(item: Selected, folder: Path) -> tuple[list[str], int]:
        task = item.task if held_out else before_held_out(item.task)
        agent = Path(tempfile.mkdtemp(prefix="bench-agent-"))
        try:
            item.suite.materialize(task, agent)
            apply_solution(agent, task.solution)
            judge = Judge(
                item.suite,
                HostBackend(),
                lambda copy: SandboxPolicy(workspace=copy, env_allow=ENV_ALLOW),
                check_runner_for(item.task),
                check_environment(),
            )
            ready = _prepare(task, agent, folder, judge, secrets.token_hex(8))
        finally:
            remove_tree(agent)
        if isinstance(ready, Verdict):
            raise SystemExit(f"{task.id} failed before its check: {ready.reason}")
        planted = ready.canaries is not None
        held_out_canaries = bool(ready.held_out and ready.held_out.must_fail)
        if ready.held_out is not None and not ready.held_out.files and not canaries:
            held_out_canaries = False  # they were in the runner's canary file (node)
        if planted and not canaries:
            for relative in ready.canaries.files:
                (folder / relative).unlink()
        if not locks:
            for path in ready.plan.locked:
                if "__pycache__" in path.parts:  # node's reporter is locked too, and needed
                    path.unlink()
        argv = [SHELL, "-c", ready.plan.command]
        if reaper and reaper_available():
            argv = under_reaper(argv)
        return argv, 1 if (planted and canaries) or held_out_canaries else 0

    return prepare


VARIANTS: dict[str, Variant] = {
    "plain (the check command alone)": plain,
    "judge (as garuda runs it)": judged(),
    "judge, no reaper": judged(reaper=False),
    "judge, no reaper nor canaries": judged(reaper=False, canaries=False),
    "judge, no reaper nor cache locks": judged(reaper=False, locks=False),
    "judge before held-out tests": judged(held_out=False),
}
PLAIN, WITH, WITHOUT = (
    "plain (the check command alone)",
    "judge (as garuda runs it)",
    "judge before held-out tests",
)


def children_cpu() -> float:
    """User + system seconds of every child process waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_check(variant: Variant, item: Selected) -> tuple[float, float]:
    """The wall and CPU seconds of one check of ``item`` prepared by ``variant`` (the
    preparation is not counted)."""
    folder = Path(tempfile.mkdtemp(prefix="bench-check-"))
    try:
        argv, expected = variant(item, folder)
        before, started = children_cpu(), time.perf_counter()
        done = subprocess.run(
            argv,
            cwd=folder,
            env=check_environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wall, used = time.perf_counter() - started, children_cpu() - before
    finally:
        remove_tree(folder)
    if done.returncode != expected:
        tail = done.stdout[-2000:].decode(errors="replace")
        raise SystemExit(f"{item.task.id}: exit {done.returncode}, not {expected}:\n{tail}")
    return wall, used


def check_cpu(variant: Variant, item: Selected) -> float:
    """The CPU seconds of one check of ``item`` prepared by ``variant``."""
    return run_check(variant, item)[1]


def main() -> None:
    """Measure interleaved rounds and print the medians per check."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="python")
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    items = select(PluginRegistry(), [args.suite], [])
    names = list(VARIANTS)
    per_check: dict[str, list[float]] = {name: [] for name in names}
    for round_index in range(args.rounds):
        shift = round_index % len(names)
        for name in names[shift:] + names[:shift]:
            total = sum(check_cpu(VARIANTS[name], item) for item in items)
            per_check[name].append(total / len(items))
    base = statistics.median(per_check[names[0]])
    print(f"suite {args.suite}, {len(items)} tasks, {args.rounds} interleaved rounds,")
    print("median CPU per check (user + system of the check's processes):")
    for name in names:
        cpu = statistics.median(per_check[name])
        print(f"  {name:<34}: {cpu * 1000:6.1f} ms   {(cpu - base) * 1000:+6.1f} ms vs plain")
    ratio = statistics.median(per_check[WITH]) / statistics.median(per_check[WITHOUT])
    print(f"judge ÷ judge before held-out tests: {ratio:.3f}x")
    ratio = statistics.median(per_check[WITH]) / statistics.median(per_check[PLAIN])
    print(f"judge ÷ plain: {ratio:.3f}x")


if __name__ == "__main__":
    main()
