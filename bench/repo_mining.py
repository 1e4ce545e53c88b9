"""Mining cost and yield: a whole build against the bare proof runs of its candidates.

Usage: python bench/repo_mining.py [--commits 300] [--every 15] [--repo PATH [--setup CMD]]
       [--max-tasks 30] [--parallel N] [--mutants N] [--bare-limit N] [--side-by-side]

The project is ``--repo`` (a local clone of any repository, cloned into a scratch folder,
its dependency folders copied beside or made by ``--setup`` run in the copy, e.g.
``uv sync``), else a generated node --test project of ``--commits`` commits (every
``--every``-th one adds a function and its test, the others change notes). The bench runs the whole ``--from-git``
build with an empty verdict cache and prints: commits read, candidates, kept, yield (kept ÷
candidates) with each skip reason counted, minutes, and mining time ÷ the bare proof runs of
the same candidates (each candidate the build proved: one run at its parent with its tests,
one at the commit, its test command scoped as the build scopes it, in trees made beforehand,
one after another; ``--bare-limit`` times only that many, spread over them, and scales up).
``--side-by-side`` (generated project) adds the older per-candidate rows: its proof with
3+3 and 1+1 runs against its two runs alone.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import ClassVar

import anyio

from garuda_evals_repo_git import builder as builder_module
from garuda_evals_repo_git.builder import GitSuiteBuilder
from garuda_evals_repo_git.cache import CACHE_FILE, Verdict
from garuda_evals_repo_git.candidates import candidate_or_reason
from garuda_evals_repo_git.gitcmd import export_tree, recent_commits
from garuda_evals_repo_git.prove import Candidate, Prover
from garuda_evals_repo_git.runners import CANARIES, GO_JSON, REPORT, classify

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


DEPENDENCY_FOLDERS = ("node_modules", ".venv", "venv")


def copy_repo(source: Path, target: Path, setup: str | None) -> None:
    """A clone of ``source``'s history, its dependency folders copied beside, or made by
    ``setup`` (a copied venv's editable installs would lead back to ``source``)."""
    subprocess.run(["git", "clone", "-q", str(source), str(target)], check=True)
    if setup:
        subprocess.run(["bash", "-c", setup], cwd=target, check=True, capture_output=True)
        return
    for name in DEPENDENCY_FOLDERS:
        if (source / name).is_dir():
            shutil.copytree(source / name, target / name, symlinks=True)


class Recording(Prover):
    """The build's prover, remembering each candidate it proves (the bench reads them)."""

    proved: ClassVar[list[tuple[Prover, Candidate]]] = []

    async def prove(self, candidate: Candidate) -> Verdict:
        Recording.proved.append((self, candidate))
        return await super().prove(candidate)


def build(root: Path, options: dict[str, object], log: Path | None) -> tuple[float, list[str]]:
    """The whole ``--from-git`` build with an empty verdict cache: seconds and its output."""
    (root / CACHE_FILE).unlink(missing_ok=True)
    lines: list[str] = []

    def echo(line: str) -> None:
        lines.append(line)
        if log is not None:
            with log.open("a") as out:
                out.write(f"{time.strftime('%H:%M:%S')} {line}\n")

    setattr(builder_module, "Prover", Recording)  # noqa: B010 (the build makes its own)
    started = time.perf_counter()
    GitSuiteBuilder().build(options, cwd=root, echo=echo)
    return time.perf_counter() - started, lines


def bare_proof(prover: Prover, candidate: Candidate) -> float:
    """One run at the parent (with the commit's tests) and one at the commit, timed alone."""
    commit = candidate.commit
    assert commit.parent is not None
    proof = prover.command.proof(candidate.run_files)
    total = 0.0
    with tempfile.TemporaryDirectory() as scratch:
        parent, tree = Path(scratch) / "parent", Path(scratch) / "commit"
        anyio.run(prover.tree, commit.parent, parent, candidate, True)
        anyio.run(prover.tree, commit.sha, tree, candidate, False)
        for folder in (parent, tree):
            report = str(Path(scratch) / f"{folder.name}.report")
            line = proof.replace(REPORT, report).replace(GO_JSON, report).replace(CANARIES, "")
            started = time.perf_counter()
            subprocess.run(
                ["bash", "-c", line], cwd=folder, env=prover.env, capture_output=True, timeout=600
            )
            total += time.perf_counter() - started
    return total


def figures(lines: list[str]) -> dict[str, str]:
    """The build's own summary lines, by their first word, and its skip reasons."""
    found: dict[str, str] = {}
    for line in lines:
        for word in ("Kept", "Yield:", "History"):
            if line.strip().startswith(word):
                found[word] = line.strip()
    skipped = lines.index("Skipped:") if "Skipped:" in lines else len(lines)
    found["skipped"] = "\n".join(x for x in lines[skipped + 1 :] if x.startswith("  "))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=None)
    parser.add_argument("--every", type=int, default=15)
    parser.add_argument("--repo", type=Path, default=None)
    parser.add_argument("--setup", default=None)
    parser.add_argument("--max-tasks", type=int, default=None)
    parser.add_argument("--parallel", type=int, default=None)
    parser.add_argument("--mutants", type=int, default=None)
    parser.add_argument("--test-command", default=None)
    parser.add_argument("--bare-limit", type=int, default=None)
    parser.add_argument("--log", type=Path, default=None)
    parser.add_argument("--side-by-side", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-repo-") as scratch:
        root = Path(scratch) / "project"
        if args.repo is not None:
            copy_repo(args.repo.resolve(), root, args.setup)
            commits, label = args.commits or 60, str(args.repo)
        else:
            commits = args.commits or 300
            generate(root, commits, args.every)
            label = f"generated node --test project, every {args.every}th commit a candidate"
        options = {
            "commits": commits,
            "max_tasks": args.max_tasks,
            "parallel": args.parallel,
            "mutants": args.mutants,
            "test_command": args.test_command or (None if args.repo else TEST_COMMAND),
        }
        given = {key: value for key, value in options.items() if value is not None}
        seconds, lines = build(root, given, args.log)
        proved = list(Recording.proved)
        step = max(1, len(proved) // args.bare_limit) if args.bare_limit else 1
        timed = proved[::step][: args.bare_limit or None]
        bare = sum(bare_proof(prover, candidate) for prover, candidate in timed)
        bare *= len(proved) / len(timed) if timed else 0
        found = figures(lines)
        side = side_by_side(root, commits) if args.side_by_side and args.repo is None else None
    print(f"{label}: --commits {commits}, --parallel {args.parallel or os.cpu_count()}")
    for key in ("Kept", "Yield:", "History"):
        print(f"  {found.get(key, key + ' (not printed)')}")
    print(found["skipped"])
    print(f"  mining: {seconds / 60:.1f} minutes")
    sample = f", {len(timed)} timed and scaled" if len(timed) < len(proved) else ""
    print(
        f"  bare proofs of the {len(proved)} candidate(s) proved (1 run per side, one after "
        f"another{sample}): {bare / 60:.1f} minutes"
    )
    if bare:
        print(f"  mining ÷ bare proofs: {seconds / bare:.2f}")
    if side is not None:
        alone = statistics.median(side["alone"])
        for row, values in side.items():
            value = statistics.median(values)
            print(f"  per candidate, {row:10s} {value * 1000:7.0f} ms   x{value / alone:5.2f}")
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"  load average {load} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
