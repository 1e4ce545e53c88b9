"""The bwrap sandbox's overhead per check: the same small pytest check, bwrap against host.

Runs the check N times under each executor, interleaved (host, bwrap, host, bwrap, ...) so
both see the same machine load, and prints the median and mean wall time of each and their
ratio. Also times a bare ``true`` to show the fixed cost of starting the sandbox.

    .venv/bin/python bench/sandbox_overhead.py [N]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio

from garuda_evals.environment import ENV_ALLOW, check_environment
from garuda_evals.executors.base import Executor, SandboxPolicy
from garuda_evals.executors.host import HostExecutor
from garuda_evals.suites.base import write_files

FILES = {
    "calc.py": "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n",
    "tests/test_calc.py": (
        "from calc import add, mul\n\n\n"
        "def test_add():\n    assert add(2, 3) == 5\n\n\n"
        "def test_mul():\n    assert mul(2, 3) == 6\n"
    ),
}
CHECK = "python3 -m pytest -q -p no:cacheprovider tests"
DEFAULT_RUNS = 10


async def _time(executor: Executor, command: str, workspace: Path) -> float:
    started = time.perf_counter()
    result = await executor.run(command, cwd=workspace, env=check_environment(), timeout_s=120)
    elapsed = (time.perf_counter() - started) * 1000
    if result.exit_code != 0:
        raise SystemExit(f"the check failed ({command}):\n{result.output[-2000:]}")
    return elapsed


def _row(label: str, host: list[float], sandboxed: list[float]) -> str:
    h, b = statistics.median(host), statistics.median(sandboxed)
    return (
        f"{label:<14} host {h:7.1f} ms (mean {statistics.mean(host):7.1f})   "
        f"bwrap {b:7.1f} ms (mean {statistics.mean(sandboxed):7.1f})   "
        f"ratio {b / h:4.2f}x   +{b - h:6.1f} ms"
    )


async def main(runs: int) -> int:
    """Measure and print; exit 1 with one line when bwrap does not work here (nothing measured)."""
    try:
        from garuda_evals_sandbox_bwrap import BwrapBackend
    except ImportError:
        print("garuda-evals-sandbox-bwrap is not installed: nothing measured", file=sys.stderr)
        return 1
    backend = BwrapBackend()
    state = backend.availability()
    if not state.ok:
        print(f"bwrap does not work here, nothing measured: {state.reason}", file=sys.stderr)
        return 1
    workspace = Path(tempfile.mkdtemp(prefix="garuda-bench-"))
    write_files(workspace, FILES)
    bwrap = backend.create(SandboxPolicy(workspace=workspace, env_allow=ENV_ALLOW))
    host = HostExecutor()
    results: dict[str, tuple[list[float], list[float]]] = {}
    try:
        for label, command in (("true", "true"), ("pytest check", CHECK)):
            await _time(host, command, workspace)  # warm caches for both
            await _time(bwrap, command, workspace)
            host_ms: list[float] = []
            bwrap_ms: list[float] = []
            for _ in range(runs):
                host_ms.append(await _time(host, command, workspace))
                bwrap_ms.append(await _time(bwrap, command, workspace))
            results[label] = (host_ms, bwrap_ms)
    finally:
        await bwrap.aclose()
        shutil.rmtree(workspace, ignore_errors=True)
    print(f"sandbox overhead, {runs} interleaved runs each ({backend.info().detail})")
    for label, (host_ms, bwrap_ms) in results.items():
        print(_row(label, host_ms, bwrap_ms))
    return 0


def parse_args() -> argparse.Namespace:
    """The command line: the number of runs of each command."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "runs", nargs="?", type=int, default=DEFAULT_RUNS, help="runs of each command"
    )
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(anyio.run(main, parse_args().runs))
