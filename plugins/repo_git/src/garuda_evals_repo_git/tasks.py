"""A kept candidate becomes a saved task; a saved task becomes a runnable Task."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from garuda_evals.api import CheckSpec, HeldOut, Solution, Task
from garuda_evals_repo_git.cache import Verdict
from garuda_evals_repo_git.gitcmd import changes, read_text
from garuda_evals_repo_git.heldout import held_out_task, share
from garuda_evals_repo_git.prompt import clean_message, task_prompt
from garuda_evals_repo_git.prove import Candidate
from garuda_evals_repo_git.refresh import refreshed_check
from garuda_evals_repo_git.rules import is_test_path
from garuda_evals_repo_git.runners import TestCommand
from garuda_evals_repo_git.suitefile import RepoTask

CHECK_TIMEOUT_S = 300.0
ID_LENGTH = 10


def repo_task(
    root: Path,
    command: TestCommand,
    candidate: Candidate,
    verdict: Verdict,
    rng: random.Random | None = None,
) -> RepoTask:
    """The saved form of a kept candidate, with a share of its proved held-out candidates
    drawn from ``rng`` (a fresh system random source by default) and taken out of its files."""
    commit = candidate.commit
    assert commit.parent is not None
    check, runner = command.check(candidate.run_files)
    touched = {
        PurePosixPath(c.path).name
        for c in changes(root, commit.parent, commit.sha)
        if not is_test_path(c.path)
    }
    configs = [name for name in command.config_files() if name not in touched]
    tests = sorted(candidate.test_files)
    chosen = share(verdict.held_out or [], verdict.fail_to_pass, rng or random.SystemRandom())
    files, held_out = held_out_task(candidate.test_files, chosen)
    held = set(held_out.ids) if held_out else set()
    return RepoTask(
        id=commit.sha[:ID_LENGTH],
        commit=commit.sha,
        parent=commit.parent,
        subject=commit.subject,
        prompt=task_prompt(commit.message, tests, candidate.deleted_tests, bool(held)),
        test_files=files,
        deleted_tests=candidate.deleted_tests,
        check_command=check,
        check_runner=runner,
        protected=[*tests, *candidate.deleted_tests, *configs],
        fail_to_pass=[test for test in verdict.fail_to_pass if test not in held],
        expected_tests=[test for test in verdict.passed_tests if test not in held],
        strength=verdict.strength,
        mutants=verdict.mutants,
        held_out=held_out,
    )


def solution(root: Path, saved: RepoTask) -> Solution:
    """The commit's non-test changes, read from the user's repository (never saved to disk)."""
    files: dict[str, str] = {}
    delete: list[str] = []
    for change in changes(root, saved.parent, saved.commit):
        if is_test_path(change.path):
            continue
        if change.status == "D":
            delete.append(change.path)
            continue
        content = read_text(root, saved.commit, change.path)
        if content is not None:
            files[change.path] = content
    return Solution(files=files, delete=delete)


def to_task(
    root: Path, saved: RepoTask, suite: str, guard: str = "", tree_tests: Sequence[str] = ()
) -> Task:
    """The runnable Task of a saved task; its solution is the commit's non-test changes.

    ``guard`` (a shell test that the dependency links are intact) runs before the check.
    ``tree_tests`` are the test files of the parent's tree: protected too, since the task's
    tests may assert through a helper in one of them (made a no-op, every assertion holds).
    """
    check = refreshed_check(saved.check_command, saved.check_runner)
    command = f"{guard} {check}" if guard else check
    return Task(
        id=saved.id,
        title=clean_message(saved.subject),
        prompt=saved.prompt,
        suite=suite,
        files=dict(saved.test_files),
        check=CheckSpec(command=command, runner=saved.check_runner, timeout_s=CHECK_TIMEOUT_S),
        protected=list(dict.fromkeys([*saved.protected, *tree_tests])),
        solution=solution(root, saved),
        held_out=HeldOut(tests=saved.held_out.tests, canaries=saved.held_out.canaries)
        if saved.held_out
        else None,
        expected_tests=list(saved.expected_tests),
        strength=saved.strength,
        metadata={
            "commit": saved.commit,
            "parent": saved.parent,
            "fail_to_pass": ", ".join(saved.fail_to_pass),
        },
    )
