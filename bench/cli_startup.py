"""How fast ``garuda --help`` starts, against a bare ``python -c pass``, side by side.

Usage: python bench/cli_startup.py [--runs N]
Prints the median of each and the ratio; runs alternate so machine noise hits both alike.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

GARUDA = str(Path(sys.executable).parent / "garuda")


def timed(argv: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    bare, helps = [], []
    for _ in range(runs):
        bare.append(timed([sys.executable, "-c", "pass"]))
        helps.append(timed([GARUDA, "--help"]))
    b, h = statistics.median(bare), statistics.median(helps)
    print(f"python -c pass : {b:7.1f} ms (median of {runs})")
    print(f"garuda --help  : {h:7.1f} ms (median of {runs})")
    print(
        f"ratio          : {h / b:7.2f}x  (garuda --help costs {h - b:.0f} ms over a bare interpreter)"
    )


if __name__ == "__main__":
    main()
