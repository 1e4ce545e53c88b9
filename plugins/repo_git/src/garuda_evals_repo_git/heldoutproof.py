"""The proof of a kept pytest task's held-out candidates: run as the judge will run them.

Every candidate test (``heldout.targets``) and up to two pairs of canaries for it are
written as the judge writes them (``pyheldout.held_out_files``: one test to a file, named
at random) into the parent's tree with the commit's tests and into the commit's tree,
and the task's check runs once in each. A candidate is kept when it fails at the parent and
passes at the commit, with a pair of canaries that both fail at both (a canary that passes
at the parent would show itself to code that has not done the work). Two runs per kept task.
"""

from __future__ import annotations

import random
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path

from garuda_evals_repo_git.cache import HeldOutTest, Verdict
from garuda_evals_repo_git.canaries import rootdir_prefix
from garuda_evals_repo_git.gitcmd import read_text
from garuda_evals_repo_git.heldcanaries import canary_sets, final_canaries
from garuda_evals_repo_git.heldout import (
    MIN_FAILING,
    Target,
    failing_functions,
    joined,
    targets,
    unit_text,
)
from garuda_evals_repo_git.prove import Candidate, Prover
from garuda_evals_repo_git.pyheldout import held_out_files, preamble, taken_names
from garuda_evals_repo_git.reports import FAILED, PASSED, read_results
from garuda_evals_repo_git.runners import CANARIES

MAX_TRIED = 12


@dataclass(frozen=True)
class _Tried:
    target: Target
    unit: str
    pairs: list[list[str]]


def _tried(candidate: Candidate, found: list[Target], rng: random.Random) -> list[_Tried]:
    tried = []
    for target in found[:MAX_TRIED]:
        text = candidate.test_files[target.path]
        unit = unit_text(text, target)
        pairs = list(canary_sets(unit, target, rng, preamble(text, target.path)))
        if pairs:
            tried.append(_Tried(target, unit, pairs))
    return tried


def _texts(candidate: Candidate, tried: list[_Tried]) -> tuple[dict[str, str], dict[str, str]]:
    tests: dict[str, str] = {}
    canaries: dict[str, str] = {}
    for path in sorted({item.target.path for item in tried}):
        mine = [item for item in tried if item.target.path == path]
        head = preamble(candidate.test_files[path], path)
        tests[path] = joined(head, (item.unit for item in mine))
        canaries[path] = joined(
            head, (text for item in mine for pair in item.pairs for text in pair)
        )
    return tests, canaries


async def _run(
    prover: Prover,
    tree: Path,
    candidate: Candidate,
    texts: tuple[dict[str, str], dict[str, str]],
    id_prefix: str,
) -> dict[str, str]:
    """Write the held-out files into ``tree`` and run the check: ``<path>::<test>`` -> state."""
    run = held_out_files(
        *texts,
        tree,
        id_prefix=id_prefix,
        taken=taken_names(tree, [*candidate.run_files, *texts[0]]),
    )
    for relative, text in run.files.items():
        (tree / relative).write_text(text, encoding="utf-8")
    check, _ = prover.command.check(candidate.run_files)
    command = check.replace(CANARIES, shlex.join(run.args))
    report = tree.parent / f"{tree.name}.heldout.report"
    await prover.run_once(command, tree, report, prover.run_timeout_s)
    results = read_results(report, prover.command.kind) or {}
    named = {**run.must_pass, **run.must_fail}
    return {name: results.get(test, "missing") for test, name in named.items()}


def _proved(item: _Tried, parent: dict[str, str], commit: dict[str, str]) -> HeldOutTest | None:
    """The candidate with its first pair of canaries that failed on both sides, if it held."""
    target = item.target
    name = f"{target.path}::{target.name}"
    if commit.get(name) != PASSED or parent.get(name) == PASSED:
        return None
    owner = f"{target.path}::{target.class_name}::" if target.class_name else f"{target.path}::"
    for index, pair in enumerate(item.pairs):
        names = [f"{owner}{target.function}__canary_{index}_{n}" for n in range(1, len(pair) + 1)]
        if all(commit.get(n) == FAILED and parent.get(n) in (FAILED, "missing") for n in names):
            return HeldOutTest(
                id=target.id,
                path=target.path,
                test=item.unit,
                canaries=final_canaries(pair, target),
            )
    return None


async def held_out_candidates(
    prover: Prover, candidate: Candidate, verdict: Verdict, rng: random.Random | None = None
) -> list[HeldOutTest]:
    """The tests of a kept pytest task that can be held out, proved at the parent and the
    commit (none when fewer than two functions go from failing to passing)."""
    rng = rng or random.SystemRandom()
    commit = candidate.commit
    if commit.parent is None or failing_functions(verdict.fail_to_pass) < MIN_FAILING:
        return []
    parent_text = {
        path: read_text(prover.root, commit.parent, path) for path in candidate.test_files
    }
    found = targets(candidate.test_files, candidate.run_files, verdict.fail_to_pass, parent_text)
    rng.shuffle(found)
    tried = _tried(candidate, found, rng)
    if not tried:
        return []
    texts = _texts(candidate, tried)
    classnames = [test.split("::", 1)[0] for test in verdict.passed_tests if "::" in test]
    anchor = candidate.run_files[0].removesuffix(".py").replace("/", ".")
    id_prefix = rootdir_prefix(anchor, classnames)
    with tempfile.TemporaryDirectory(prefix="garuda-heldout-") as scratch:
        base = Path(scratch)
        await prover.tree(commit.parent, base / "parent", candidate, with_tests=True)
        await prover.tree(commit.sha, base / "commit", candidate, with_tests=False)
        at_parent = await _run(prover, base / "parent", candidate, texts, id_prefix)
        at_commit = await _run(prover, base / "commit", candidate, texts, id_prefix)
    proved = (_proved(item, at_parent, at_commit) for item in tried)
    return [test for test in proved if test is not None]
