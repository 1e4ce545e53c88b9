"""The host reaper's cost per command: the same commands with and without it, side by side.

Runs each command N times through ``run_in_group``, interleaved (plain, reaped, plain,
reaped, ...) so both see the same machine load, and prints the median and mean wall time of
each and their ratio. ``true`` shows the fixed cost (starting the reaper); the small pytest
check shows what it adds to a real check; the daemon row shows the sweep of a ``setsid``
leftover (the plain run leaves that daemon alive; this script kills it afterwards).

    .venv/bin/python bench/reaper_overhead.py [N]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio

from garuda_evals.environment import check_environment
from garuda_evals.executors.host import SHELL
from garuda_evals.executors.process import reaper_available, run_in_group
from garuda_evals.suites.base import write_files

FILES = {
    "calc.py": "def add(a, b):\n    return a + b\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
}
MARKER = "1000.424242"
COMMANDS = {
    "true": "true",
    "pytest check": "python3 -m pytest -q -p no:cacheprovider tests",
    "setsid daemon": f"setsid sleep {MARKER} >/dev/null 2>&1 < /dev/null & exit 0",
}
DEFAULT_RUNS = 20


async def _time(command: str, workspace: Path, *, reap: bool) -> float:
    started = time.perf_counter()
    result = await run_in_group(
        [SHELL, "-c", command],
        cwd=workspace,
        env=check_environment(),
        timeout_s=120,
        output_limit=64 * 1024,
        reap=reap,
    )
    elapsed = (time.perf_counter() - started) * 1000
    if result.exit_code != 0:
        raise SystemExit(f"the command failed ({command}):\n{result.output[-2000:]}")
    return elapsed


def _kill_marked() -> int:
    killed = 0
    for name in os.listdir("/proc"):
        try:
            if name.isdigit() and MARKER.encode() in Path(f"/proc/{name}/cmdline").read_bytes():
                os.kill(int(name), signal.SIGKILL)
                killed += 1
        except OSError:
            continue
    return killed


def _row(label: str, plain: list[float], reaped: list[float]) -> str:
    p, r = statistics.median(plain), statistics.median(reaped)
    return (
        f"{label:<14} plain {p:7.1f} ms (mean {statistics.mean(plain):7.1f})   "
        f"reaped {r:7.1f} ms (mean {statistics.mean(reaped):7.1f})   "
        f"ratio {r / p:4.2f}x   +{r - p:6.1f} ms"
    )


async def main(runs: int) -> int:
    """Measure and print; exit 1 with one line where the reaper is not available."""
    if not reaper_available():
        print("the reaper needs Linux with /proc: nothing measured", file=sys.stderr)
        return 1
    workspace = Path(tempfile.mkdtemp(prefix="garuda-bench-reaper-"))
    write_files(workspace, FILES)
    print(f"{runs} runs each, interleaved; python {sys.version.split()[0]}")
    for label, command in COMMANDS.items():
        plain: list[float] = []
        reaped: list[float] = []
        await _time(command, workspace, reap=True)
        for _ in range(runs):
            plain.append(await _time(command, workspace, reap=False))
            reaped.append(await _time(command, workspace, reap=True))
        print(_row(label, plain, reaped))
    print(f"daemons the plain runs left alive (killed now): {_kill_marked()}")
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
