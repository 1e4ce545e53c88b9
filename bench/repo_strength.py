"""Strength cost: time to measure a task's strength against the time of its two test runs.

Usage: python bench/repo_strength.py [--candidates 8] [--mutants 12]
Generates a node --test project whose every candidate adds a function with a comparison,
integer literals and a boolean (and its test). Then, per candidate and one after another
(so machine load hits all alike): its two test runs alone (parent with the tests, commit,
in trees made beforehand), its strength measured with 1 worker and with 2 workers. Prints
medians per candidate, the mutants made, and the ratios to the two runs alone. Exits 1 when
a candidate's tests do not fail at the parent and pass at the commit, when no candidate is
kept, or when a candidate yields no mutant.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).parent))
from repo_mining import TEST_COMMAND, _git, two_runs_alone

from garuda_evals_repo_git.candidates import candidate_or_reason
from garuda_evals_repo_git.gitcmd import recent_commits
from garuda_evals_repo_git.prove import Prover
from garuda_evals_repo_git.runners import classify
from garuda_evals_repo_git.strength import measure


def generate(root: Path, candidates: int) -> None:
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    _git(root, "config", "user.name", "Bench")
    _git(root, "config", "user.email", "bench@example.com")
    (root / "src").mkdir()
    (root / "test").mkdir()
    (root / "package.json").write_text('{"name": "bench", "version": "1.0.0"}\n')
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "Start")
    for index in range(1, candidates + 1):
        (root / "src" / f"f{index}.js").write_text(
            f"module.exports = (x) => {{\n  const strict = true;\n  if (x > {index}) {{\n"
            f"    return strict ? x * 2 : x;\n  }}\n  return x + {index};\n}};\n"
        )
        (root / "test" / f"f{index}.test.js").write_text(
            "const test = require('node:test');\nconst assert = require('node:assert');\n"
            f"const f = require('../src/f{index}.js');\n"
            f"test('f{index}', () => {{\n  assert.strictEqual(f({index + 1}), {2 * index + 2});\n"
            f"  assert.strictEqual(f({index}), {2 * index});\n}});\n"
        )
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", f"Add f{index}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=8)
    parser.add_argument("--mutants", type=int, default=12)
    args = parser.parse_args()
    times: dict[str, list[float]] = {"alone": [], "1 worker": [], "2 workers": []}
    made: list[int] = []
    scores: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-strength-") as scratch:
        root = Path(scratch) / "project"
        generate(root, args.candidates)
        command = classify(TEST_COMMAND, None)
        prover = Prover(root, command, {**os.environ, "CI": "1"})
        for commit in recent_commits(root, args.candidates + 1, None):
            candidate = candidate_or_reason(root, commit, command)
            if isinstance(candidate, str):
                continue
            times["alone"].append(two_runs_alone(root, candidate))
            for label, workers in (("1 worker", 1), ("2 workers", 2)):
                started = time.perf_counter()
                found = anyio.run(measure, prover, candidate, [], workers, args.mutants)
                times[label].append(time.perf_counter() - started)
            if found.score is None:
                sys.exit(f"repo_strength: nothing measured: no mutant of {commit.sha[:12]}")
            made.append(found.mutants)
            scores.append(found.score)
    if not made:
        sys.exit("repo_strength: nothing measured: no candidate was kept")
    alone = statistics.median(times["alone"])
    print(
        f"{len(made)} candidates, median {statistics.median(made):.0f} mutants each, "
        f"median strength {statistics.median(scores):.2f} (node --test); medians per candidate:"
    )
    for label in ("alone", "1 worker", "2 workers"):
        seconds = statistics.median(times[label])
        name = "its two test runs alone" if label == "alone" else f"its strength, {label}"
        print(f"  {name:32s} {seconds * 1000:7.0f} ms   x{seconds / alone:5.2f}")
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"load average {load} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
