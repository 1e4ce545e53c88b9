"""Mining cost: time per proved candidate against the time of its two test runs alone.

Usage: python bench/repo_mining.py [--commits 300] [--every 15]
Generates a node --test project of ``--commits`` commits (every ``--every``-th one adds a
function and its test, the others change notes), then, side by side in one run:
(a) ``--from-git`` with the default proof (parent 3 runs, commit 3 runs), one at a time;
(b) the same with one run per side; (c) the default proof with --parallel 2;
(d) each kept candidate's two test runs alone (parent with the tests, commit), in trees
prepared beforehand; and the file rules of all commits alone, spread over the candidates. Prints the time per candidate of each and the ratios to (d).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from garuda_evals_repo_git.builder import GitSuiteBuilder
from garuda_evals_repo_git.cache import CACHE_FILE
from garuda_evals_repo_git.candidates import candidate_or_reason
from garuda_evals_repo_git.gitcmd import export_tree, recent_commits
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


def two_runs_alone(root: Path) -> tuple[float, int]:
    command = classify(TEST_COMMAND, None)
    total = 0.0
    tasks = load_suite(root / SUITE_FILE).tasks
    for task in tasks:
        with tempfile.TemporaryDirectory() as scratch:
            parent, commit = Path(scratch) / "parent", Path(scratch) / "commit"
            export_tree(root, task.parent, parent)
            for relative, content in task.test_files.items():
                (parent / relative).parent.mkdir(parents=True, exist_ok=True)
                (parent / relative).write_text(content)
            export_tree(root, task.commit, commit)
            proof = command.proof(sorted(task.test_files))
            for tree, expected in ((parent, False), (commit, True)):
                line = proof.replace(REPORT, str(Path(scratch) / f"{tree.name}.xml"))
                started = time.perf_counter()
                done = subprocess.run(["bash", "-c", line], cwd=tree, capture_output=True)
                total += time.perf_counter() - started
                if (done.returncode == 0) != expected:
                    sys.exit(f"unexpected result in {tree.name} of {task.id}")
    return total, len(tasks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("--every", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-repo-") as scratch:
        root = Path(scratch) / "project"
        generate(root, args.commits, args.every)
        default, kept = mine(root, args.commits, runs=3, parallel=1)
        single, _ = mine(root, args.commits, runs=1, parallel=1)
        parallel, _ = mine(root, args.commits, runs=3, parallel=2)
        alone, count = two_runs_alone(root)
        rules = file_rules(root, args.commits)
    base = alone / count
    print(f"{args.commits} commits, {kept} candidates proved and kept (node --test)")
    rows = [
        ("mining, 3+3 runs, --parallel 1", default / kept),
        ("mining, 1+1 runs, --parallel 1", single / kept),
        ("mining, 3+3 runs, --parallel 2", parallel / kept),
        ("its two test runs alone", base),
        ("  (file rules of all commits)", rules / kept),
    ]
    for label, seconds in rows:
        print(f"  {label:32s} {seconds * 1000:8.0f} ms per candidate   x{seconds / base:5.2f}")


if __name__ == "__main__":
    main()
