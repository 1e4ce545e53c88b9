"""Where the time of ``garuda eval --agent oracle -s SUITE`` goes, phase by phase.

Usage: python bench/run_profile.py [--suite python] [--executor host|os] [--repeat N]
Runs the eval in this process with timers wrapped around the harness's steps and prints each
step's wall time (summed over its calls) beside the whole. Steps nest: the judge includes
its materialize, snapshot, check and JUnit parsing; ``check command`` is the executor's run
(the probe's, the agent's and the checks'). Start-up (imports, building the CLI) is measured
in this process; a bare ``python -c pass`` is timed for comparison. Exits 1 having printed
no step when the eval does not pass (an error, a failing run, a missing toolchain).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import inspect
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

STARTED = time.perf_counter()
TOTALS: dict[str, list[float]] = defaultdict(list)
STEPS = (
    ("hook calls (collect)", "garuda_evals.plugins.manager:PluginRegistry.collect"),
    ("task selection (suite loading)", "garuda_evals.runner.session:select"),
    ("toolchain probes", "garuda_evals.runner.session:check_toolchains"),
    ("materialize (agent + judge copies)", "garuda_evals.suites.base:Suite.materialize"),
    ("stored change: git snapshot", "garuda_evals.runner.stored_change:ChangeRecorder.snapshot"),
    ("stored change: git diff", "garuda_evals.runner.stored_change:ChangeRecorder.diff"),
    ("stored change: remove git folder", "garuda_evals.runner.stored_change:ChangeRecorder.close"),
    ("agent turn (oracle)", "garuda_evals.agents.oracle:OracleAgent.run"),
    ("judge in a fresh copy (all of it)", "garuda_evals.runner.task_run:judge_in_copy"),
    ("  protected snapshot", "garuda_evals.judging.judge:snapshot"),
    ("  carry the change in", "garuda_evals.judging.judge:apply_change"),
    ("  lint", "garuda_evals.judging.judge:lint"),
    ("  JUnit evidence parsing", "garuda_evals.checks.junit:JUnitCheckRunner.evidence"),
    ("  hand the judge copy over for removal", "garuda_evals.judging.judge:remove_soon"),
    ("scratch folders removed (worker thread)", "garuda_evals.removal:remove_tree"),
    ("check command (executor.run, host)", "garuda_evals.executors.host:HostExecutor.run"),
    (
        "check command (executor.run, bwrap)",
        "garuda_evals_sandbox_bwrap.executor:BwrapExecutor.run",
    ),
    ("choose the executor (sandbox probe)", "garuda_evals.runner.session:choose_executor"),
    ("  bwrap: mount layout", "garuda_evals_sandbox_bwrap.executor:plan_layout"),
    ("  bwrap: seccomp filter", "garuda_evals_sandbox_bwrap.executor:filter_fd"),
    ("  bwrap: close (private /tmp)", "garuda_evals_sandbox_bwrap.executor:BwrapExecutor.aclose"),
    ("results.jsonl append", "garuda_evals.runner.journal:ResultsJournal.append"),
    ("results.jsonl fsync (worker thread)", "garuda_evals.runner.journal:ResultsJournal.sync"),
    ("run.json manifest", "garuda_evals.runner.session:write_manifest"),
    ("report build", "garuda_evals.runner.session:build_report"),
    ("report.json save", "garuda_evals.runner.session:save_report"),
)


def _timed(label: str, function: Callable[..., Any]) -> Callable[..., Any]:
    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def timed_async(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await function(*args, **kwargs)
            finally:
                TOTALS[label].append(time.perf_counter() - started)

        return timed_async

    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            TOTALS[label].append(time.perf_counter() - started)

    return timed


def wrap_steps() -> None:
    """Put a timer around every step that can be imported here."""
    for label, target in STEPS:
        module_name, _, path = target.partition(":")
        try:
            owner: Any = importlib.import_module(module_name)
        except ImportError:
            continue
        *parents, name = path.split(".")
        for parent in parents:
            owner = getattr(owner, parent)
        setattr(owner, name, _timed(label, getattr(owner, name)))


def bare_start_ms() -> float:
    """A bare interpreter start, for comparison."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    """Run the eval once with timers and print the steps."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="python")
    parser.add_argument("--executor", default="host")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--reprobe", action="store_true", help="pass --reprobe to the eval")
    args = parser.parse_args()
    imports_started = time.perf_counter()
    from garuda_evals.cli.main import build_cli

    cli = build_cli()
    imported = time.perf_counter()
    wrap_steps()
    argv = ["eval", "--agent", "oracle", "-s", args.suite, "--executor", args.executor]
    argv += ["--repeat", str(args.repeat)] + (["--reprobe"] if args.reprobe else [])
    with tempfile.TemporaryDirectory(prefix="bench-profile-") as project:
        os.chdir(project)
        eval_started = time.perf_counter()
        try:
            code = cli.main(argv, prog_name="garuda", standalone_mode=False)
        except SystemExit as stopped:
            code = stopped.code
        finished = time.perf_counter()
    if code:
        sys.exit(f"run_profile: nothing measured: garuda {' '.join(argv)} exited {code}")
    total = finished - STARTED
    print(f"garuda {' '.join(argv)}: {total * 1000:7.0f} ms in this process", file=sys.stderr)
    rows = [
        ("python -c pass (a bare interpreter)", bare_start_ms(), 1),
        ("imports + building the CLI", (imported - imports_started) * 1000, 1),
        ("the eval command (all of it)", (finished - eval_started) * 1000, 1),
    ]
    from garuda_evals.plugins.manager import PluginRegistry

    registry_started = time.perf_counter()
    PluginRegistry()
    rows.append(
        ("plugin registry (entry-point scan)", (time.perf_counter() - registry_started) * 1000, 1)
    )
    from garuda_evals.executors.reaper_server import stop_server

    stop_server()  # the checks' reapers are its children: counted once it has waited for them
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    rows.append(("CPU of this process (harness)", (own.ru_utime + own.ru_stime) * 1000, 1))
    rows.append(
        ("CPU of its children (checks, git)", (children.ru_utime + children.ru_stime) * 1000, 1)
    )
    rows += [(label, sum(TOTALS[label]) * 1000, len(TOTALS[label])) for label, _ in STEPS]
    for label, ms, calls in rows:
        if calls:
            print(f"  {label:<40} {ms:8.1f} ms  {calls:4d} calls  {ms / total / 10:5.1f} %")


if __name__ == "__main__":
    main()
