"""Task strength: the share of wrong variants of the reference change its tests reject.

Each mutant (see ``mutants``) is written over the commit's tree, the task's scoped test
command runs once, and a non-zero exit (or a run killed at the limit) rejects it. Mutants
run in parallel, each worker in its own copy of the commit's tree.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import anyio

from garuda_evals_repo_git.deps import link_dependencies
from garuda_evals_repo_git.gitcmd import changes, export_tree, read_text
from garuda_evals_repo_git.mutants import Mutant, mutants
from garuda_evals_repo_git.prove import Candidate, Prover
from garuda_evals_repo_git.rules import is_test_path

MUTANT_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class Strength:
    """How many mutants were run and rejected, and which survived."""

    mutants: int
    rejected: int
    survivors: list[str] = field(default_factory=list)

    @property
    def score(self) -> float | None:
        """``rejected / mutants``, None when no mutant could be made."""
        return round(self.rejected / self.mutants, 2) if self.mutants else None


def source_changes(root: Path, candidate: Candidate) -> dict[str, tuple[str, str]]:
    """The commit's non-test text changes: path -> (parent's text or "", commit's text)."""
    commit = candidate.commit
    assert commit.parent is not None
    found: dict[str, tuple[str, str]] = {}
    for change in changes(root, commit.parent, commit.sha):
        if change.status == "D" or is_test_path(change.path):
            continue
        after = read_text(root, commit.sha, change.path)
        if after is not None:
            found[change.path] = (read_text(root, commit.parent, change.path) or "", after)
    return found


async def measure(
    prover: Prover, candidate: Candidate, dependencies: list[str], parallel: int, limit: int
) -> Strength:
    """Run the task's scoped tests against up to ``limit`` mutants of its reference change."""
    made = mutants(source_changes(prover.root, candidate), limit) if limit > 0 else []
    if not made or not candidate.run_files:
        return Strength(0, 0)
    # A mutant may keep a file's size and second: no bytecode, so none is read stale.
    # Stopped at its first failing test: a failure is all it takes to reject a mutant.
    proof = f"PYTHONDONTWRITEBYTECODE=1 {prover.command.proof(candidate.run_files, fail_fast=True)}"
    pending: Iterator[Mutant] = iter(made)
    rejected: list[str] = []
    survived: list[str] = []

    async def worker(scratch: Path) -> None:
        tree = scratch / "tree"
        await anyio.to_thread.run_sync(export_tree, prover.root, candidate.commit.sha, tree)
        link_dependencies(prover.root, tree, dependencies)
        for number, mutant in enumerate(pending):
            originals = {path: (tree / path).read_text(encoding="utf-8") for path in mutant.files}
            for path, text in mutant.files.items():
                (tree / path).write_text(text, encoding="utf-8")
            report = scratch / f"mutant-{number}.report"
            code, _ = await prover.run_once(proof, tree, report, MUTANT_TIMEOUT_S)
            (rejected if code != 0 else survived).append(mutant.label)
            for path, text in originals.items():
                (tree / path).write_text(text, encoding="utf-8")

    with tempfile.TemporaryDirectory(prefix="garuda-mutants-") as scratch:
        async with anyio.create_task_group() as group:
            for index in range(max(1, min(parallel, len(made)))):
                folder = Path(scratch) / f"w{index}"
                folder.mkdir()
                group.start_soon(worker, folder)
    return Strength(len(made), len(rejected), sorted(survived))
