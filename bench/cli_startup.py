"""How fast ``garuda --help`` (and ``garuda eval --help``) start, against a bare ``python -c pass``.

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
    bare, helps, eval_helps = [], [], []
    for _ in range(runs):
        bare.append(timed([sys.executable, "-c", "pass"]))
        helps.append(timed([GARUDA, "--help"]))
        eval_helps.append(timed([GARUDA, "eval", "--help"]))
    b = statistics.median(bare)
    print(f"python -c pass     : {b:7.1f} ms (median of {runs})")
    for label, times in (("garuda --help", helps), ("garuda eval --help", eval_helps)):
        h = statistics.median(times)
        print(
            f"{label:<18} : {h:7.1f} ms  ratio {h / b:5.2f}x  (+{h - b:.0f} ms over a bare interpreter)"
        )


if __name__ == "__main__":
    main()
