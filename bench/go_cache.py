"""Per-task check time of the go suite: the shared warm Go build cache against a cold one.

Usage: python bench/go_cache.py [--runs N] [--executor os|host]
Each task's reference solution is judged as a run judges it (bwrap by default), once with
the shared build cache that `garuda eval --prepare go` fills (read-only in the sandbox) and
once with GARUDA_GO_COLD=1 (a fresh GOCACHE in the check's folder: every standard package
compiled again, as before the shared cache). Runs alternate so machine noise hits both alike.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import anyio

from garuda_evals.api import ExecutorBackend
from garuda_evals.executors.host import HostBackend
from garuda_evals.testing import self_test
from garuda_evals_go.cache import COLD_VAR
from garuda_evals_go.suite import load_go_suite

COLD_LIMIT_S = 1200.0
"""A cold build of the standard library can take minutes on a busy machine."""


def backend(name: str) -> ExecutorBackend:
    if name == "host":
        return HostBackend()
    from garuda_evals_sandbox_bwrap import BwrapBackend

    return BwrapBackend()


def timed(task_id: str, cold: bool, executor: ExecutorBackend) -> float:
    suite = load_go_suite()
    task = next(task for task in suite.tasks() if task.id == task_id)
    if cold:
        os.environ[COLD_VAR] = "1"
    else:
        os.environ.pop(COLD_VAR, None)
    started = time.perf_counter()
    verdict = anyio.run(
        lambda: self_test(suite, task, solved=True, backend=executor, timeout_s=COLD_LIMIT_S)
    )
    elapsed = time.perf_counter() - started
    assert verdict.passed, verdict.reason
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--executor", choices=["os", "host"], default="os")
    args = parser.parse_args()
    executor = backend(args.executor)
    print(f"go suite, reference solutions, executor {executor.name}, median of {args.runs}")
    print(f"{'task':<26} {'warm':>8} {'cold':>8} {'cold/warm':>10}")
    for task in load_go_suite().tasks():
        warm, cold = [], []
        for _ in range(args.runs):
            warm.append(timed(task.id, False, executor))
            cold.append(timed(task.id, True, executor))
        w, c = statistics.median(warm), statistics.median(cold)
        print(f"{task.id:<26} {w:7.1f}s {c:7.1f}s {c / w:9.1f}x")


if __name__ == "__main__":
    main()
