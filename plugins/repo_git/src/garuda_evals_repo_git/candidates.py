"""From commits to candidates: the file rules, then the test files each task will add."""

from __future__ import annotations

from pathlib import Path

from garuda_evals_repo_git.gitcmd import Commit, changes, read_text
from garuda_evals_repo_git.prove import Candidate
from garuda_evals_repo_git.rules import NOT_TEXT, ROOT_COMMIT, is_test_path, skip_reason
from garuda_evals_repo_git.runners import TestCommand


def candidate_or_reason(root: Path, commit: Commit, command: TestCommand) -> Candidate | str:
    """A candidate, or the file rule that skips the commit."""
    if commit.parent is None:
        return ROOT_COMMIT
    parent = commit.parent
    files = changes(root, parent, commit.sha)

    def package_json(path: str) -> tuple[str | None, str | None]:
        return read_text(root, parent, path), read_text(root, commit.sha, path)

    reason = skip_reason(files, package_json)
    if reason is not None:
        return reason
    contents: dict[str, str] = {}
    for change in files:
        if change.status == "D":
            continue
        content = read_text(root, commit.sha, change.path)
        if content is None:
            return NOT_TEXT
        contents[change.path] = content
    tests = [f for f in files if is_test_path(f.path)]
    test_files = {f.path: contents[f.path] for f in tests if f.status != "D"}
    deleted = [f.path for f in tests if f.status == "D"]
    return Candidate(
        commit=commit,
        test_files=test_files,
        deleted_tests=deleted,
        run_files=command.runnable(sorted(test_files)),
    )
