"""Import cost: time per SWE-bench instance imported and proved, against its bare test run.

Usage: python bench/swebench_import.py [--per-repo 50] [--parallel 2] [--sample 10]
Writes the offline fixture (``garuda_evals_swebench.fixture``: ``--per-repo`` instances in
each of its two repositories, pytest ids and Django names) and imports it with
``garuda import swe-bench`` (environments built, every task judged as shipped and solved,
under the default executor). Then, one after another, the bare test run of ``--sample``
instances of each repository: the instance's test command alone (no garuda) in a checkout of
its base commit with both patches applied. Prints, per repository, the import's time per
instance, the bare run's median and their ratio; a second import (everything cached) too.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from garuda_evals_swebench.checkrunner import hook_source
from garuda_evals_swebench.fixture import make
from garuda_evals_swebench.gitio import export_tree
from garuda_evals_swebench.suitefile import SUITE_FILE

GARUDA = Path(sys.executable).with_name("garuda")


def _import(paths: dict[str, Path], suite: Path, cache: Path, parallel: int) -> float:
    args = [
        str(GARUDA), "import", "swe-bench", str(paths["instances"]), "--repos", str(paths["repos"]),
        "--env-recipe", str(paths["recipe"]), "--env-cache", str(cache), "-o", str(suite),
        "--parallel", str(parallel),
    ]  # fmt: skip
    started = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        print(f"the import failed, nothing measured:\n{done.stdout}{done.stderr}", file=sys.stderr)
        sys.exit(1)
    return seconds


def _bare(paths: dict[str, Path], task: dict[str, object], instance: dict[str, object]) -> float:
    """The instance's check command alone, in a checkout with both patches applied."""
    clone = paths["repos"] / str(task["repo"]).replace("/", "__")
    with tempfile.TemporaryDirectory(prefix="bench-swe-") as scratch:
        tree = Path(scratch) / "tree"
        export_tree(clone, str(task["baseCommit"]), tree)
        for key in ("patch", "test_patch"):
            subprocess.run(
                ["git", "apply", "-"], cwd=tree, input=str(instance[key]), text=True, check=True
            )
        (tree / str(task["link"])).symlink_to(str(task["env"]))
        hook = Path(scratch) / "hook.py"
        hook.write_text(hook_source())
        command = str(task["command"]).replace("{junit}", shlex.quote(f"{scratch}/report.xml"))
        command = command.replace("{hook}", shlex.quote(str(hook)))
        started = time.perf_counter()
        subprocess.run(
            ["/bin/bash", "-c", command], cwd=tree, capture_output=True, check=False, env=os.environ
        )
        return time.perf_counter() - started


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="swebench_import.py", description=__doc__.split("\n")[0])
    parser.add_argument("--per-repo", type=int, default=50, help="instances per repository (50)")
    parser.add_argument("--parallel", type=int, default=2, help="checks at once in the import (2)")
    parser.add_argument("--sample", type=int, default=10, help="bare runs per repository (10)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-swe-") as scratch:
        root = Path(scratch)
        paths = make(root / "fixture", args.per_repo)
        suite, cache = root / "suite", root / "envs"
        first = _import(paths, suite, cache, args.parallel)
        again = _import(paths, suite, cache, args.parallel)
        saved = json.loads((suite / SUITE_FILE).read_text())
        instances = {
            row["instance_id"]: row
            for row in map(json.loads, paths["instances"].read_text().splitlines())
        }
        total = len(saved["tasks"])
        if total == 0:
            print("no task was imported, nothing measured", file=sys.stderr)
            return 1
        print(f"{total} instances over 2 repositories, --parallel {args.parallel}")
        print(
            f"import, environments built, every task proved: {first:.1f} s ({first / total:.2f} s per instance)"
        )
        print(
            f"import again, everything cached: {again:.1f} s ({again / total:.3f} s per instance)"
        )
        print(f"{'repository':<12} {'import/instance':>16} {'bare run (median)':>18} {'ratio':>6}")
        for repo in ("acme/calc", "acme/shapes"):
            tasks = [task for task in saved["tasks"] if task["repo"] == repo]
            bare = [_bare(paths, task, instances[task["id"]]) for task in tasks[: args.sample]]
            per = first / total
            median = statistics.median(bare)
            print(f"{repo:<12} {per:>14.2f} s {median:>16.2f} s {per / median:>6.1f}")
    print(
        "(an imported task is judged twice, as shipped and solved, each a fresh checkout and check)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
