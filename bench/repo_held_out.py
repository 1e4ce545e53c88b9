"""The cost of a repo task's held-out tests at build time, against its proof.

Usage: python bench/repo_held_out.py [--candidates 6] [--tests 3]
Generates a pytest project (its ``.venv`` is this interpreter's environment) whose
candidates each add a function and a test file of ``--tests`` test functions. Per candidate,
one after another (so machine load hits both alike): its proof as the build runs it (3 runs
per side, then the check's run), then the proof of its held-out candidates (their canaries
written as the judge writes them, one run at the parent, one at the commit). Prints the
medians and the ratio. Exits 1 when a candidate is not kept or holds nothing out.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import anyio

from garuda_evals_repo_git.candidates import candidate_or_reason
from garuda_evals_repo_git.gitcmd import recent_commits
from garuda_evals_repo_git.heldoutproof import held_out_candidates
from garuda_evals_repo_git.prove import Prover
from garuda_evals_repo_git.pyroots import package_roots
from garuda_evals_repo_git.runners import classify

TEST_COMMAND = ".venv/bin/python -m pytest"
PYPROJECT = (
    '[project]\nname = "calc"\nversion = "0"\n\n[tool.pytest.ini_options]\npythonpath = ["src"]\n'
)


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def generate(root: Path, candidates: int, tests: int) -> None:
    (root / "src" / "calc").mkdir(parents=True)
    (root / "tests").mkdir()
    _git(root, "init", "-q", "-b", "main")
    _git(root, "config", "user.name", "Bench")
    _git(root, "config", "user.email", "bench@example.com")
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / ".gitignore").write_text(".venv\n__pycache__/\n")
    code = "def base(x):\n    return x\n"
    (root / "src" / "calc" / "__init__.py").write_text(code)
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "Start")
    for index in range(1, candidates + 1):
        code += f"\n\ndef f{index}(x):\n    return x * {index} + 1\n"
        (root / "src" / "calc" / "__init__.py").write_text(code)
        text = f"from calc import f{index}\n"
        for case in range(1, tests + 1):
            text += f"\n\ndef test_f{index}_{case}():\n    assert f{index}({case}) == {case * index + 1}\n"
        (root / "tests" / f"test_f{index}.py").write_text(text)
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", f"Add f{index}")
    (root / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)


def side_by_side(root: Path, candidates: int) -> dict[str, list[float]]:
    tree = [str(path.relative_to(root)) for path in root.rglob("*.py") if ".venv" not in path.parts]
    command = replace(classify(TEST_COMMAND, None), roots=package_roots(tree, lambda _: None))
    prover = Prover(root, command, {**os.environ, "CI": "1"})
    times: dict[str, list[float]] = {"proof": [], "held out": []}
    for commit in recent_commits(root, candidates, None):
        candidate = candidate_or_reason(root, commit, command)
        if isinstance(candidate, str):
            continue
        candidate.dependencies = [".venv"]
        started = time.perf_counter()
        verdict = anyio.run(prover.prove, candidate)
        times["proof"].append(time.perf_counter() - started)
        if verdict.reason is not None:
            sys.exit(f"{commit.sha[:12]}: {verdict.reason}: nothing measured")
        started = time.perf_counter()
        found = anyio.run(held_out_candidates, prover, candidate, verdict)
        times["held out"].append(time.perf_counter() - started)
        if not found:
            sys.exit(f"{commit.sha[:12]}: no test could be held out: nothing measured")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=6)
    parser.add_argument("--tests", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-held-out-") as scratch:
        root = Path(scratch) / "calc"
        generate(root, args.candidates, args.tests)
        times = side_by_side(root, args.candidates)
    proof = statistics.median(times["proof"])
    held = statistics.median(times["held out"])
    print(f"{len(times['proof'])} candidates, {args.tests} test functions each (median ms)")
    print(f"  its proof (3 runs per side and the check's run): {proof * 1000:7.0f}  1.00")
    print(
        f"  its held-out candidates (2 runs):                {held * 1000:7.0f}  {held / proof:.2f}"
    )


if __name__ == "__main__":
    main()
