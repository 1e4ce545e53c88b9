"""The Ray backend's overhead: the same eval on the local backend and on Ray, side by side.

Usage: python bench/ray_overhead.py [--suite python] [--repeat 20] [--parallel 2]
Runs ``garuda eval --agent oracle -s SUITE --repeat N --parallel P`` twice: with the local
backend, then with ``--backend ray`` (a local Ray started for the run and stopped after).
Prints, for each, the whole command's time, the time outside the runs (start-up and
shut-down; for Ray: starting Ray, probing its node, stopping it), the runs' wall time from
report.json, the wall time per run, and the per-run ratio ray/local. Exits 1 having printed nothing when a run fails or
Ray is not installed.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

GARUDA = str(Path(sys.executable).parent / "garuda")


@dataclass(frozen=True)
class Measured:
    """One eval: the whole command, the runs' wall time (report.json), and the run count."""

    command_s: float
    runs_s: float
    runs: int

    @property
    def startup_s(self) -> float:
        return self.command_s - self.runs_s

    @property
    def per_run_s(self) -> float:
        return self.runs_s / self.runs


def run_eval(backend: str, suite: str, repeat: int, parallel: int) -> Measured:
    with tempfile.TemporaryDirectory(prefix="bench-ray-") as folder:
        project = Path(folder)
        (project / ".git").mkdir()
        started = time.perf_counter()
        done = subprocess.run(
            [GARUDA, "eval", "--agent", "oracle", "-s", suite, "--backend", backend,
             "--repeat", str(repeat), "--parallel", str(parallel)],
            cwd=project, capture_output=True, text=True,
        )  # fmt: skip
        elapsed = time.perf_counter() - started
        if done.returncode != 0:
            sys.exit(f"nothing measured: --backend {backend} exited {done.returncode}:\n"
                     f"{done.stderr[-2000:]}")  # fmt: skip
        report = json.loads(next(project.glob(".garuda/evals/*/report.json")).read_text())
    return Measured(elapsed, report["wallMs"] / 1000, len(report["results"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="python")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--parallel", type=int, default=2)
    args = parser.parse_args()
    if (
        importlib.util.find_spec("garuda_evals_ray") is None
        or importlib.util.find_spec("ray") is None
    ):
        sys.exit("nothing measured: garuda-evals-ray (and ray) are not installed")
    local = run_eval("local", args.suite, args.repeat, args.parallel)
    ray = run_eval("ray", args.suite, args.repeat, args.parallel)
    print(
        f"suite {args.suite} x {args.repeat} repeats = {local.runs} runs, "
        f"--parallel {args.parallel}, --agent oracle"
    )
    print(f"{'':28}{'local':>9}{'ray':>9}")
    rows = (
        ("whole command (s)", local.command_s, ray.command_s),
        ("start-up and shut-down (s)", local.startup_s, ray.startup_s),
        ("runs, wall (s)", local.runs_s, ray.runs_s),
        ("per run, wall (s)", local.per_run_s, ray.per_run_s),
    )
    for label, a, b in rows:
        print(f"{label:28}{a:9.2f}{b:9.2f}")
    print(
        f"per-run overhead ratio ray/local: {ray.per_run_s / local.per_run_s:.2f}x "
        f"({ray.per_run_s - local.per_run_s:+.3f} s per run, "
        f"{ray.startup_s - local.startup_s:+.1f} s once to start and stop Ray)"
    )


if __name__ == "__main__":
    main()
