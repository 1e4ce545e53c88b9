"""Mining a pytest project: every file rule, every proof outcome, and the saved suite."""

from __future__ import annotations

import json
from typing import Any
from pathlib import Path

import anyio
import pytest
from garuda_evals.errors import FileFormatError
from garuda_evals.testing import self_test

from garuda_evals_repo_git import prove, rules
from garuda_evals_repo_git.suite import load_repo_suite
from garuda_evals_repo_git.suitefile import SUITE_FILE


def test_kept_tasks_and_every_skip_reason(mined_python: Any) -> None:
    assert mined_python.code == 0, mined_python.output
    saved = json.loads((mined_python.repo.root / SUITE_FILE).read_text())
    kept = [task["commit"] for task in saved["tasks"]]
    assert kept == [mined_python.shas["negate"], mined_python.shas["power"], mined_python.shas["subtract"]]
    assert saved["testCommand"] == ".venv/bin/python -m pytest"
    out = mined_python.output
    assert "on the host, with no sandbox" in out
    for reason, count in [
        (rules.NO_TEST, 3),
        (rules.NO_FILES, 1),
        (rules.TOO_MANY, 1),
        (rules.BINARY, 1),
        (rules.LOCK_OR_MANIFEST, 1),
        (rules.ONLY_TESTS, 1),
        (rules.ROOT_COMMIT, 1),
        (prove.ALREADY_PASS, 1),
        (prove.FLAKY_COMMIT, 1),
        (prove.FAIL_AT_COMMIT, 1),
        (prove.NO_RUNNABLE, 1),
    ]:
        assert f"{count:4d}  {reason}" in out, (reason, out)
    assert "Kept 3 task(s)" in out
    assert "16 commits read" in out
    assert f"] {mined_python.shas['merge'][:12]}" not in out


def test_first_failure_at_a_commit_is_shown(mined_python: Any) -> None:
    assert f"First failure at a commit ({mined_python.shas['broken'][:12]} Add halve)" in mined_python.output
    assert "assert 2.5 == 2" in mined_python.output


def test_checkout_head_and_index_unchanged(mined_python: Any) -> None:
    assert mined_python.repo.state() == mined_python.before


def test_saved_task_shape(mined_python: Any) -> None:
    saved = json.loads((mined_python.repo.root / SUITE_FILE).read_text())
    power = next(t for t in saved["tasks"] if t["commit"] == mined_python.shas["power"])
    assert power["parent"] == mined_python.repo.git("rev-parse", f"{mined_python.shas['power']}^").strip()
    assert power["deletedTests"] == ["tests/test_legacy.py"]
    assert list(power["testFiles"]) == ["tests/test_power.py"]
    assert power["failToPass"] == ["tests.test_power::test_power"]
    assert "--junitxml={junit}" in power["checkCommand"]
    assert "tests/test_power.py" in power["checkCommand"]
    assert {"tests/test_power.py", "tests/test_legacy.py", "conftest.py"} <= set(power["protected"])
    prompt = power["prompt"]
    assert prompt.startswith("Add power and drop legacy")
    for leak in ("#45", "#44", "https://", "1a2b3c4d", "Signed-off-by", mined_python.shas["power"][:7]):
        assert leak not in prompt
    assert "- tests/test_power.py" in prompt
    assert "Do not change these test files." in prompt


def test_oracle_passes_and_unsolved_fails(mined_python: Any) -> None:
    suite = load_repo_suite(mined_python.repo.root)
    for task in suite.tasks():
        solved = anyio.run(lambda t=task: self_test(suite, t, solved=True))
        assert solved.passed, (task.id, solved.reason, solved.check)
        assert solved.check is not None and (solved.check.tests_ran or 0) >= 1
        unsolved = anyio.run(lambda t=task: self_test(suite, t, solved=False))
        assert not unsolved.passed, task.id


def test_editing_a_task_test_fails(mined_python: Any) -> None:
    suite = load_repo_suite(mined_python.repo.root)
    task = next(t for t in suite.tasks() if t.metadata["commit"] == mined_python.shas["subtract"])

    def cheat(workspace: Path) -> None:
        (workspace / "tests" / "test_subtract.py").write_text("def test_subtract():\n    pass\n")

    verdict = anyio.run(lambda: self_test(suite, task, solved=False, edit=cheat))
    assert not verdict.passed
    assert "protected files changed: changed tests/test_subtract.py" in (verdict.reason or "")

    def conftest(workspace: Path) -> None:
        (workspace / "tests" / "conftest.py").write_text("collect_ignore_glob = ['*']\n")

    verdict = anyio.run(lambda: self_test(suite, task, solved=False, edit=conftest))
    assert not verdict.passed
    assert "added tests/conftest.py" in (verdict.reason or "")


def test_corrupt_and_foreign_suite_files(git_repo: Any, tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "other")
    repo.commit("start", {"a.py": "x = 1\n"})
    path = repo.root / SUITE_FILE
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    with pytest.raises(FileFormatError, match="repo-suite.json: not valid JSON"):
        load_repo_suite(repo.root)
    path.write_text(json.dumps({"version": 1, "root": "/x", "head": "y", "tasks": []}))
    with pytest.raises(FileFormatError, match="repo-suite.json: field 'testCommand'"):
        load_repo_suite(repo.root)
    path.write_text(json.dumps({"runId": "r1", "results": []}))
    with pytest.raises(FileFormatError, match="repo-suite.json: field 'version'"):
        load_repo_suite(repo.root)
    path.write_text(json.dumps({"version": 2, "root": "/x", "head": "y", "tasks": []}))
    with pytest.raises(FileFormatError, match="field 'version': 2 is not 1"):
        load_repo_suite(repo.root)
