"""The file rules at their edges, and the parent's tree in a proof, without mining a repository."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from garuda_evals_repo_git import prove, rules
from garuda_evals_repo_git.gitcmd import Change, Commit
from garuda_evals_repo_git.runners import TestCommand


def _files(*paths: str) -> list[Change]:
    return [Change("M", path, False) for path in paths]


def _no_package_json(path: str) -> tuple[str | None, str | None]:
    raise AssertionError(f"package.json read for {path}")


def _reason(*paths: str) -> str | None:
    return rules.skip_reason(_files(*paths), _no_package_json)


SOURCES = [f"src/m{i}.py" for i in range(9)]


def test_ten_files_are_allowed_and_eleven_are_too_many() -> None:
    assert _reason("tests/test_a.py", *SOURCES) is None
    assert _reason("tests/test_a.py", *SOURCES, "src/m9.py") == rules.TOO_MANY


def test_docs_do_not_count_toward_the_file_limit() -> None:
    docs = ("README.md", "docs/guide.py", "CHANGES.rst", "notes.txt")
    assert _reason("tests/test_a.py", *SOURCES, *docs) is None


def test_a_commit_of_tests_and_docs_only_is_skipped() -> None:
    assert _reason("tests/test_a.py", "README.md", "docs/usage.md") == rules.ONLY_TESTS
    assert _reason("tests/test_a.py", "src/a.py", "README.md") is None


DEPENDENCY_FIELDS = [
    "dependencies",
    "devDependencies",
    "peerDependencies",
    "optionalDependencies",
    "bundledDependencies",
    "overrides",
    "resolutions",
]


@pytest.mark.parametrize("key", DEPENDENCY_FIELDS)
def test_each_dependency_field_of_package_json_is_a_dependency_change(key: str) -> None:
    before = {"name": "a", "version": "1.0.0", key: {"x": "1"}}
    after = {**before, key: {"x": "2"}}
    sides = {"package.json": (json.dumps(before), json.dumps(after))}
    files = _files("package.json", "src/a.js", "test/a.test.js")
    assert rules.skip_reason(files, sides.__getitem__) == rules.DEPENDENCIES
    same = {"package.json": (json.dumps(before), json.dumps({**before, "version": "1.0.1"}))}
    assert rules.skip_reason(files, same.__getitem__) is None


def test_a_file_named_like_a_go_or_python_test_is_a_test() -> None:
    assert rules.is_test_path("pkg/calc_test.py")
    assert _reason("pkg/calc.py", "pkg/calc_test.py") is None
    assert _reason("pkg/calc.py", "pkg/contest.py") == rules.NO_TEST


@pytest.mark.parametrize("name", ["requirements.txt", "requirements-dev.txt", "requirements.in"])
def test_requirements_files_are_manifests(name: str) -> None:
    assert rules.is_lock_or_manifest(f"service/{name}")
    assert _reason("tests/test_a.py", "src/a.py", name) == rules.LOCK_OR_MANIFEST
    assert not rules.is_lock_or_manifest("docs/requirements.md")


# passes when the deleted test is still there, or when the commit's code is
NEW_OR_STALE = "test -e tests/test_old.py || test -e src/new.py; code=$?; printf '<testsuite><testcase name=\"t\"/></testsuite>' > {junit}; exit $code"


def test_a_test_the_commit_deletes_is_deleted_at_the_parent_too(
    git_repo: Any, tmp_path: Path
) -> None:
    repo = git_repo(tmp_path / "repo")
    parent = repo.commit("start", {"src/a.py": "", "tests/test_old.py": ""})
    sha = repo.commit(
        "replace", {"src/new.py": "", "tests/test_new.py": ""}, ("tests/test_old.py",)
    )
    candidate = prove.Candidate(
        commit=Commit(sha=sha, parent=parent, subject="replace", message="replace"),
        test_files={"tests/test_new.py": ""},
        deleted_tests=["tests/test_old.py"],
        run_files=["tests/test_new.py"],
    )
    prover = prove.Prover(
        root=repo.root,
        command=TestCommand(base=NEW_OR_STALE, kind="custom"),
        env={"PATH": "/usr/bin:/bin"},
        commit_runs=1,
        parent_runs=1,
    )
    verdict = anyio.run(prover.prove, candidate)
    assert verdict.reason is None, verdict
    assert verdict.passed_tests == ["t"]


def test_no_files_binary_files_and_package_json_that_is_not_an_object() -> None:
    assert _reason() == rules.NO_FILES
    binary = [*_files("tests/test_a.py", "src/a.py"), Change("M", "src/logo.png", True)]
    assert rules.skip_reason(binary, _no_package_json) == rules.BINARY
    assert rules.dependency_change("[1]", "{}") and rules.dependency_change("{}", "[1]")
    assert rules.dependency_change(None, '{"dependencies": {"x": "1"}}')
    assert not rules.dependency_change(None, '{"name": "a"}')
    assert not rules.dependency_change('{"name": "a"}', None)


@pytest.mark.parametrize("name", ["package-lock.json", "yarn.lock", "uv.lock", "pyproject.toml"])
def test_lock_files_and_manifests_other_than_package_json(name: str) -> None:
    assert rules.is_lock_or_manifest(f"web/{name}")
    assert _reason("tests/test_a.py", "src/a.py", name) == rules.LOCK_OR_MANIFEST
    assert not rules.is_lock_or_manifest("web/package.json")
