"""Mining cost: time per proved candidate against the time of its two test runs alone.

Usage: python bench/repo_mining.py [--commits 300] [--every 15]
Generates a node --test project of ``--commits`` commits (every ``--every``-th one adds a
function and its test, the others change notes). Then, per candidate and one after another
(so machine load hits all alike): its proof as the build runs it (3 runs per side, the
default), its proof with 1 run per side, and its two test runs alone (parent with the tests,
commit) in trees made beforehand. Also the whole build with --parallel 1 and 2, and the file
rules of all commits, per candidate. Prints medians and the ratio to the two runs alone. Prints the time per candidate of each and the ratios to (d).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio

from garuda_evals_repo_git.builder import GitSuiteBuilder
from garuda_evals_repo_git.cache import CACHE_FILE
from garuda_evals_repo_git.candidates import candidate_or_reason
from garuda_evals_repo_git.gitcmd import export_tree, recent_commits
from garuda_evals_repo_git.prove import Candidate, Prover
from garuda_evals_repo_git.runners import REPORT, classify
from garuda_evals_repo_git.suitefile import SUITE_FILE, load_suite

TEST_COMMAND = "node --test"


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def generate(root: Path, commits: int, every: int) -> None:
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    _git(root, "config", "user.name", "Bench")
    _git(root, "config", "user.email", "bench@example.com")
    (root / "src").mkdir()
    (root / "test").mkdir()
    (root / "package.json").write_text('{"name": "bench", "version": "1.0.0"}\n')
    for index in range(commits):
        if index and index % every == 0:
            (root / "src" / f"f{index}.js").write_text(f"module.exports = (x) => x + {index};\n")
            (root / "test" / f"f{index}.test.js").write_text(
                "const test = require('node:test');\nconst assert = require('node:assert');\n"
                f"const f = require('../src/f{index}.js');\n"
                f"test('f{index}', () => assert.strictEqual(f(1), {index + 1}));\n"
            )
            message = f"Add f{index}"
        else:
            (root / "NOTES.md").write_text(f"note {index}\n")
            message = f"Note {index}"
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", message)


def mine(root: Path, commits: int, runs: int, parallel: int) -> tuple[float, int]:
    """The whole ``--from-git`` build, with an empty verdict cache."""
    (root / CACHE_FILE).unlink(missing_ok=True)
    builder = GitSuiteBuilder(commit_runs=runs, parent_runs=runs)
    options = {"commits": commits, "max_tasks": commits, "test_command": TEST_COMMAND}
    started = time.perf_counter()
    code = builder.build({**options, "parallel": parallel}, cwd=root, echo=lambda _line: None)
    elapsed = time.perf_counter() - started
    if code != 0:
        sys.exit("mining kept no task")
    return elapsed, len(load_suite(root / SUITE_FILE).tasks)


def file_rules(root: Path, commits: int) -> float:
    command = classify(TEST_COMMAND, None)
    started = time.perf_counter()
    for commit in recent_commits(root, commits, None):
        candidate_or_reason(root, commit, command)
    return time.perf_counter() - started


def two_runs_alone(root: Path, candidate: Candidate) -> float:
    """The candidate's parent run (tests added) and commit run, in trees made beforehand."""
    command = classify(TEST_COMMAND, None)
    commit = candidate.commit
    assert commit.parent is not None
    total = 0.0
    with tempfile.TemporaryDirectory() as scratch:
        parent, tree = Path(scratch) / "parent", Path(scratch) / "commit"
        export_tree(root, commit.parent, parent)
        for relative, content in candidate.test_files.items():
            (parent / relative).parent.mkdir(parents=True, exist_ok=True)
            (parent / relative).write_text(content)
        export_tree(root, commit.sha, tree)
        proof = command.proof(candidate.run_files)
        for folder, expected in ((parent, False), (tree, True)):
            line = proof.replace(REPORT, str(Path(scratch) / f"{folder.name}.xml"))
            started = time.perf_counter()
            done = subprocess.run(["bash", "-c", line], cwd=folder, capture_output=True)
            total += time.perf_counter() - started
            if (done.returncode == 0) != expected:
                sys.exit(f"unexpected result in {folder.name} of {commit.sha[:12]}")
    return total


def timed_proof(prover: Prover, candidate: Candidate) -> float:
    started = time.perf_counter()
    verdict = anyio.run(prover.prove, candidate)
    if verdict.reason is not None:
        sys.exit(f"{candidate.commit.sha[:12]}: {verdict.reason}")
    return time.perf_counter() - started


def side_by_side(root: Path, commits: int) -> dict[str, list[float]]:
    """Per kept candidate, one after another: the proof (3+3, then 1+1) and its runs alone."""
    command = classify(TEST_COMMAND, None)
    env = {**os.environ, "CI": "1"}
    full = Prover(root, command, env, commit_runs=3, parent_runs=3)
    single = Prover(root, command, env, commit_runs=1, parent_runs=1)
    times: dict[str, list[float]] = {"proof 3+3": [], "proof 1+1": [], "alone": []}
    for commit in recent_commits(root, commits, None):
        candidate = candidate_or_reason(root, commit, command)
        if isinstance(candidate, str):
            continue
        times["proof 3+3"].append(timed_proof(full, candidate))
        times["proof 1+1"].append(timed_proof(single, candidate))
        times["alone"].append(two_runs_alone(root, candidate))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("--every", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-repo-") as scratch:
        root = Path(scratch) / "project"
        generate(root, args.commits, args.every)
        build, kept = mine(root, args.commits, runs=3, parallel=1)
        build_parallel, _ = mine(root, args.commits, runs=3, parallel=2)
        times = side_by_side(root, args.commits)
        rules = file_rules(root, args.commits)
    alone = statistics.median(times["alone"])
    print(
        f"{args.commits} commits, {kept} candidates, all kept (node --test); medians per candidate:"
    )
    rows = [
        ("its two test runs alone", alone),
        ("its proof, 1+1 runs", statistics.median(times["proof 1+1"])),
        ("its proof, 3+3 runs (default)", statistics.median(times["proof 3+3"])),
        ("whole build, --parallel 1", build / kept),
        ("whole build, --parallel 2", build_parallel / kept),
        ("  of which file rules", rules / kept),
    ]
    for label, seconds in rows:
        print(f"  {label:32s} {seconds * 1000:7.0f} ms   x{seconds / alone:5.2f}")
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"load average {load} on {os.cpu_count()} cores (the build rows are not interleaved)")


if __name__ == "__main__":
    main()
