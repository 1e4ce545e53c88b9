"""garuda's own CPU work as instructions counted by valgrind: steady on a loaded machine.

Usage: python bench/instructions.py [--against DIR] [--runs 1] [--suite python]
Counts the instructions of the ``garuda`` process itself (every thread; the checks it starts
are not counted) with ``valgrind --tool=callgrind``, for ``python -c pass``, ``garuda --help``
and ``garuda eval --agent oracle -s SUITE --executor host`` (in a new empty folder). Time on
a shared machine moves with the load; instruction counts repeat to about 0.1%, so a change of
a few milliseconds is seen. With ``--against DIR`` (another checkout with its own ``.venv``,
main for example) each command also runs there, interleaved, and the ratio is printed.
Needs valgrind; runs ~50 times slower than natively (about a minute per eval).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
COLLECTED = re.compile(r"Collected : (\d+)")


def run(tree: Path, argv: list[str], *, valgrind: bool) -> subprocess.CompletedProcess[str]:
    """One run of ``argv`` with the interpreter of ``tree``'s ``.venv``, in a new folder."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    counter = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    folder = tempfile.mkdtemp(prefix="bench-instructions-")
    try:
        return subprocess.run(
            [*(counter if valgrind else []), str(tree / ".venv" / "bin" / "python"), *argv],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
        )
    finally:
        shutil.rmtree(folder)


def counted(tree: Path, argv: list[str]) -> int:
    """Instructions of one run of ``argv``, after a run that is not counted (it writes the
    bytecode, the probe and entry-point caches, as any earlier run would have)."""
    run(tree, argv, valgrind=False)
    done = run(tree, argv, valgrind=True)
    found = COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--suite", default="python")
    options = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("instructions.py: valgrind is not installed: nothing measured")
    trees = [HERE, *([options.against.resolve()] if options.against else [])]
    commands = {
        "python -c pass": ["-c", "pass"],
        "garuda --help": ["{garuda}", "--help"],
        f"garuda eval -s {options.suite}": [
            *("{garuda}", "eval", "--agent", "oracle", "-s", options.suite),
            *("--executor", "host"),
        ],
    }
    for label, argv in commands.items():
        counts: dict[Path, list[int]] = {tree: [] for tree in trees}
        for _ in range(options.runs):
            for tree in trees:
                garuda = str(tree / ".venv" / "bin" / "garuda")
                counts[tree].append(counted(tree, [a.format(garuda=garuda) for a in argv]))
        medians = [statistics.median(counts[tree]) for tree in trees]
        line = f"{label:<24}: {medians[0] / 1e6:9.1f} M instructions"
        if options.against:
            line += f" | {options.against}: {medians[1] / 1e6:9.1f} M  ratio {medians[0] / medians[1]:.3f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
