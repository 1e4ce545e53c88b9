"""Scale: ``--parallel 2`` against ``--parallel 1``, and peak memory of one long run.

Usage: python bench/scale.py [--speed-runs 20] [--rounds 3] [--runs 100] [--executor auto]

Speed: ``garuda eval --agent oracle -s SUITE`` with enough repeats for ``--speed-runs`` runs,
at ``--parallel 1`` and ``--parallel 2`` in interleaved rounds (the order flips every round so
drift on a shared machine hits both); prints the medians and the speedup p1/p2, both for the
whole command and for the run phase alone (report.json's ``wallMs``: after start-up and the
toolchain probe).

Memory: one ``--runs N`` run at ``--parallel 2`` (``--runs 1000`` is the 1,000-run goal).
garuda runs in-process in a child python whose peak resident size is
``resource.getrusage(RUSAGE_SELF).ru_maxrss`` read at its exit (the garuda process alone; the
checks it starts are not in it). The checks and git commands it starts are sampled separately
from ``/proc/<pid>/status`` (VmHWM of each, every 0.1 s; a child shorter than that can be
missed). ``results.jsonl`` is counted while it runs, to show the report is written as it goes.

Exits 1 when it cannot measure (garuda missing, a run that does not pass, a report without
its rows): what was not measured is never printed as a figure.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import NoReturn

GARUDA = Path(sys.executable).parent / "garuda"
IN_PROCESS = """
import resource, sys
from garuda_evals.cli.main import entry
sys.argv = ["garuda", *sys.argv[2:]]
try:
    entry()
finally:
    with open(OUT, "w") as out:
        out.write(str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
"""


def cannot_measure(why: str) -> NoReturn:
    """Stop with exit 1: nothing was measured."""
    sys.exit(f"scale: nothing measured: {why}")


def task_count(suite: str) -> int:
    """How many tasks ``-s suite`` selects."""
    from garuda_evals.errors import GarudaError
    from garuda_evals.plugins.manager import PluginRegistry
    from garuda_evals.runner.selection import select

    try:
        return len(select(PluginRegistry(), [suite], []))
    except GarudaError as error:
        cannot_measure(f"-s {suite}: {error}")


def eval_args(suite: str, repeat: int, parallel: int, executor: str) -> list[str]:
    """The ``garuda eval`` arguments of one measured run."""
    return [
        "eval",
        "--agent",
        "oracle",
        "-s",
        suite,
        "--repeat",
        str(repeat),
        "--parallel",
        str(parallel),
        "--executor",
        executor,
        "--report-format",
        "json",
    ]


def report_of(stderr: str) -> dict[str, object]:
    """The report.json named on the run's last ``report:`` line."""
    lines = [line for line in stderr.splitlines() if line.startswith("report: ")]
    if not lines:
        cannot_measure(f"the run printed no report path:\n{stderr[-2000:]}")
    data: dict[str, object] = json.loads(Path(lines[-1].removeprefix("report: ")).read_text())
    return data


def checked(done: subprocess.CompletedProcess[str], runs: int) -> dict[str, object]:
    """The run's report, when every one of its ``runs`` runs passed."""
    if done.returncode != 0:
        cannot_measure(f"garuda eval exited {done.returncode}:\n{done.stderr[-2000:]}")
    report = report_of(done.stderr)
    rows = report.get("results")
    if not isinstance(rows, list) or len(rows) != runs:
        found = len(rows) if isinstance(rows, list) else 0
        cannot_measure(f"the report has {found} rows, expected {runs}")
    return report


def timed_eval(args: list[str], project: Path, runs: int) -> tuple[float, float]:
    """Wall seconds of the whole command and of its run phase (report wallMs)."""
    started = time.perf_counter()
    done = subprocess.run(
        [str(GARUDA), *args], cwd=project, capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - started
    report = checked(done, runs)
    return wall, int(str(report["wallMs"])) / 1000


def speed(suite: str, runs: int, rounds: int, executor: str, project: Path) -> None:
    """Interleaved rounds of p1 and p2; prints medians and the speedups."""
    repeat = math.ceil(runs / task_count(suite))
    runs = repeat * task_count(suite)
    times: dict[int, list[tuple[float, float]]] = {1: [], 2: []}
    for number in range(rounds):
        for parallel in (1, 2) if number % 2 == 0 else (2, 1):
            args = eval_args(suite, repeat, parallel, executor)
            times[parallel].append(timed_eval(args, project, runs))
    p1 = [statistics.median(t[i] for t in times[1]) for i in (0, 1)]
    p2 = [statistics.median(t[i] for t in times[2]) for i in (0, 1)]
    load = os.getloadavg()[1]
    print(f"speed: -s {suite} --repeat {repeat} ({runs} runs), {rounds} rounds, medians:")
    print(f"  machine: {os.cpu_count()} cores, load average {load:.1f} over the last 5 minutes")
    print(f"  --parallel 1 : {p1[0]:6.2f} s whole command, {p1[1]:6.2f} s run phase")
    print(f"  --parallel 2 : {p2[0]:6.2f} s whole command, {p2[1]:6.2f} s run phase")
    print(f"  speedup p1/p2: {p1[0] / p2[0]:6.2f}x whole command, {p1[1] / p2[1]:6.2f}x run phase")


def descendants(root: int) -> list[int]:
    """Every live process under ``root`` (from /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        parents.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry))
    found, todo = [], [root]
    while todo:
        children = parents.get(todo.pop(), [])
        found += children
        todo += children
    return found


def status_kb(pid: int, field: str) -> int:
    """A ``kB`` field of /proc/<pid>/status (0 when the process is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


class ChildWatch:
    """Samples the run's descendants and its results.jsonl every 0.1 s in a thread."""

    def __init__(self, pid: int, evals: Path) -> None:
        self.pid, self.evals = pid, evals
        self.one_kb, self.sum_kb = 0, 0
        self.rows: list[tuple[float, int]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _rows_on_disk(self) -> int:
        files = list(self.evals.glob("*/results.jsonl"))
        return files[0].read_bytes().count(b"\n") if files else 0

    def _loop(self) -> None:
        started = time.monotonic()
        own = _cmdline(self.pid)
        while not self.stop.wait(0.1):
            # a child between fork and exec still shows garuda's memory: left out
            pids = [p for p in descendants(self.pid) if _cmdline(p) != own]
            sizes = [(status_kb(p, "VmHWM"), status_kb(p, "VmRSS")) for p in pids]
            self.one_kb = max([self.one_kb, *(hwm for hwm, _ in sizes)])
            self.sum_kb = max(self.sum_kb, sum(rss for _, rss in sizes))
            self.rows.append((time.monotonic() - started, self._rows_on_disk()))

    def finish(self) -> None:
        """Stop sampling."""
        self.stop.set()
        self.thread.join()


def memory(suite: str, runs: int, executor: str, project: Path) -> None:
    """One run of ``runs`` runs at --parallel 2; prints the peaks and rows on disk over time."""
    tasks = task_count(suite)
    repeat = math.ceil(runs / tasks)
    runs = repeat * tasks
    with tempfile.NamedTemporaryFile(prefix="bench-scale-", suffix=".rss") as out:
        code = IN_PROCESS.replace("OUT", repr(out.name))
        argv = [sys.executable, "-c", code, "garuda", *eval_args(suite, repeat, 2, executor)]
        started = time.perf_counter()
        process = subprocess.Popen(
            argv, cwd=project, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        watch = ChildWatch(process.pid, project / ".garuda" / "evals")
        _, stderr = process.communicate()
        watch.finish()
        wall = time.perf_counter() - started
        checked(subprocess.CompletedProcess(argv, process.returncode, "", stderr), runs)
        peak_kb = int(Path(out.name).read_text() or 0)
    if not peak_kb:
        cannot_measure("the child python did not report its peak")
    print(f"memory: -s {suite} --repeat {repeat} --parallel 2 ({runs} runs) in {wall:.0f} s:")
    print(f"  garuda process peak (getrusage RUSAGE_SELF ru_maxrss): {peak_kb / 1024:7.1f} MB")
    print(f"  largest child seen (/proc VmHWM, 0.1 s samples)      : {watch.one_kb / 1024:7.1f} MB")
    print(f"  children at once, most seen (sum of VmRSS)           : {watch.sum_kb / 1024:7.1f} MB")
    if watch.rows:
        span = watch.rows[-1][0]
        marks = []
        for share in (0.25, 0.5, 0.75):
            rows = next(r for t, r in watch.rows if t >= share * span)
            marks.append(f"{rows} at {share:.0%}")
        print(f"  results.jsonl rows on disk while running: {', '.join(marks)} of the time")


def main() -> None:
    """Parse the flags, measure, print."""
    parser = argparse.ArgumentParser(
        prog="scale.py",
        description="--parallel 2 vs 1 speedup, and peak memory of one long run",
    )
    parser.add_argument("--suite", default="python")
    parser.add_argument("--executor", default="auto", choices=["auto", "os", "host"])
    parser.add_argument("--speed-runs", type=int, default=20, help="runs per speed measurement")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved p1/p2 rounds")
    parser.add_argument("--runs", type=int, default=100, help="runs of the memory measurement")
    parser.add_argument("--only", choices=["speed", "memory"], help="measure only this")
    args = parser.parse_args()
    if not GARUDA.exists():
        cannot_measure(f"{GARUDA} not found (run from the project's .venv)")
    if Path(args.suite).exists():
        args.suite = str(Path(args.suite).resolve())
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as folder:
        for name in ("speed", "memory"):
            (Path(folder) / name / ".git").mkdir(parents=True)
        if args.only != "memory":
            speed(args.suite, args.speed_runs, args.rounds, args.executor, Path(folder) / "speed")
        if args.only != "speed":
            memory(args.suite, args.runs, args.executor, Path(folder) / "memory")


if __name__ == "__main__":
    main()
