"""Mining a pytest project: every file rule, every proof outcome, and the saved suite."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import anyio
import pytest

from garuda_evals.errors import FileFormatError, UsageError
from garuda_evals.executors.base import SandboxPolicy
from garuda_evals.testing import run_settings, self_test
from garuda_evals_repo_git import prove, rules
from garuda_evals_repo_git.builder import GitSuiteBuilder
from garuda_evals_repo_git.suite import load_repo_suite
from garuda_evals_repo_git.suitefile import SUITE_FILE


def test_kept_tasks_and_every_skip_reason(mined_python: Any) -> None:
    assert mined_python.code == 0, mined_python.output
    saved = json.loads((mined_python.repo.root / SUITE_FILE).read_text())
    kept = [task["commit"] for task in saved["tasks"]]
    assert kept == [
        mined_python.shas["negate"],
        mined_python.shas["power"],
        mined_python.shas["subtract"],
    ]
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
    assert (
        f"First failure at a commit ({mined_python.shas['broken'][:12]} Add halve)"
        in mined_python.output
    )
    assert "assert 2.5 == 2" in mined_python.output


def test_checkout_head_and_index_unchanged(mined_python: Any) -> None:
    assert mined_python.repo.state() == mined_python.before


def test_saved_task_shape(mined_python: Any) -> None:
    saved = json.loads((mined_python.repo.root / SUITE_FILE).read_text())
    power = next(t for t in saved["tasks"] if t["commit"] == mined_python.shas["power"])
    assert (
        power["parent"]
        == mined_python.repo.git("rev-parse", f"{mined_python.shas['power']}^").strip()
    )
    assert power["deletedTests"] == ["tests/test_legacy.py"]
    assert list(power["testFiles"]) == ["tests/test_power.py"]
    assert power["failToPass"] == ["tests.test_power::test_power"]
    assert power["expectedTests"] == ["tests.test_power::test_power"]
    negate = next(t for t in saved["tasks"] if t["commit"] == mined_python.shas["negate"])
    assert negate["failToPass"] == ["tests.test_calc::test_negate"]
    assert negate["expectedTests"] == ["tests.test_calc::test_add", "tests.test_calc::test_negate"]
    assert saved["version"] == 3
    assert power["heldOut"] is None, "one test fails at the parent: none can be held out"
    assert "--junitxml={junit}" in power["checkCommand"]
    assert "tests/test_power.py" in power["checkCommand"]
    assert {"tests/test_power.py", "tests/test_legacy.py", "conftest.py"} <= set(power["protected"])
    prompt = power["prompt"]
    assert prompt.startswith("Add power and drop legacy")
    for leak in (
        "#45",
        "#44",
        "https://",
        "1a2b3c4d",
        "Signed-off-by",
        mined_python.shas["power"][:7],
    ):
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


def test_shadowing_pytest_or_swapping_the_venv_fails(mined_python: Any) -> None:
    suite = load_repo_suite(mined_python.repo.root)
    task = next(t for t in suite.tasks() if t.metadata["commit"] == mined_python.shas["subtract"])
    assert task.check.command.startswith('test "$(readlink .venv)" = ')

    def shadow(workspace: Path) -> None:
        (workspace / "pytest.py").write_text("raise SystemExit(0)\n")

    verdict = anyio.run(lambda: self_test(suite, task, solved=False, edit=shadow))
    assert not verdict.passed
    assert "added pytest.py" in (verdict.reason or "")

    def swap(workspace: Path) -> None:
        (workspace / ".venv").unlink()
        fake = workspace / ".venv" / "bin"
        fake.mkdir(parents=True)
        (fake / "python").write_text("#!/bin/sh\nexit 0\n")
        (fake / "python").chmod(0o755)

    verdict = anyio.run(lambda: self_test(suite, task, solved=False, edit=swap))
    assert not verdict.passed, "the judge's copy keeps its own link: the real tests run"
    assert ".venv/bin/python: its place in the task is not a plain file" in verdict.left_out
    assert verdict.check is not None and verdict.check.tests_ran is not None


def test_corrupt_and_foreign_suite_files(git_repo: Any, tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "other")
    repo.commit("start", {"a.py": "x = 1\n"})
    path = repo.root / SUITE_FILE
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    with pytest.raises(FileFormatError, match=r"repo-suite\.json: not valid JSON"):
        load_repo_suite(repo.root)
    path.write_text(json.dumps({"version": 3, "root": "/x", "head": "y", "tasks": []}))
    with pytest.raises(FileFormatError, match=r"repo-suite\.json: field 'testCommand'"):
        load_repo_suite(repo.root)
    path.write_text(json.dumps({"runId": "r1", "results": []}))
    with pytest.raises(FileFormatError, match=r"repo-suite\.json: field 'version'"):
        load_repo_suite(repo.root)
    path.write_text(json.dumps({"version": 4, "root": "/x", "head": "y", "tasks": []}))
    with pytest.raises(FileFormatError, match="field 'version': 4 is not 3"):
        load_repo_suite(repo.root)
    path.write_bytes(b'{"version": "\xff"}')
    with pytest.raises(FileFormatError, match=r"repo-suite\.json: not UTF-8 text \(byte 13\)"):
        load_repo_suite(repo.root)


def test_a_suite_file_of_schema_1_asks_for_a_rebuild(mined_python: Any, tmp_path: Path) -> None:
    saved = json.loads((mined_python.repo.root / SUITE_FILE).read_text())
    saved["version"] = 1
    for task in saved["tasks"]:
        del task["expectedTests"]
    moved = tmp_path / "old"
    shutil.copytree(mined_python.repo.root, moved, symlinks=True)
    (moved / SUITE_FILE).write_text(json.dumps(saved))
    with pytest.raises(FileFormatError) as error:
        load_repo_suite(moved)
    message = str(error.value)
    assert message.startswith(f"{moved.resolve() / SUITE_FILE}: field 'expectedTests' is missing")
    assert "garuda eval --from-git" in message and "\n" not in message


def _git(workspace: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(workspace), *args], capture_output=True, text=True)


def test_solution_is_unreachable_from_the_workspace(mined_python: Any, tmp_path: Path) -> None:
    repo = mined_python.repo
    suite = load_repo_suite(repo.root)
    task = next(t for t in suite.tasks() if t.metadata["commit"] == mined_python.shas["power"])
    workspace = tmp_path / "ws"
    workspace.mkdir()
    suite.materialize(task, workspace)
    commits = _git(workspace, "log", "--all", "--format=%H").stdout.split()
    assert len(commits) == 1
    assert not set(commits) & set(repo.git("rev-list", "--all").split())
    for sha in (mined_python.shas["power"], mined_python.shas["negate"], repo.head()):
        assert _git(workspace, "show", sha).returncode != 0
        assert _git(workspace, "cat-file", "-e", sha).returncode != 0
    solved_blob = repo.git("rev-parse", f"{mined_python.shas['power']}:src/calc.py").strip()
    assert _git(workspace, "cat-file", "-e", solved_blob).returncode != 0
    assert _git(workspace, "remote").stdout == ""
    assert not (workspace / ".git" / "objects" / "info" / "alternates").exists()
    assert (workspace / ".git").is_dir()
    grep = subprocess.run(
        ["grep", "-r", "-l", "-e", "def power", "-e", str(repo.root), str(workspace)],
        capture_output=True,
        text=True,
    )
    assert grep.stdout == "", grep.stdout
    links = [p for p in workspace.rglob("*") if p.is_symlink()]
    assert [p.name for p in links] == [".venv"]
    assert not any(str(p.resolve()).startswith(str(repo.root / ".git")) for p in links)
    assert (workspace / "tests" / "test_power.py").is_file()
    assert not (workspace / "tests" / "test_legacy.py").exists()
    assert _git(workspace, "status", "--porcelain").stdout.split() == [
        "D",
        "tests/test_legacy.py",
        "??",
        "tests/test_power.py",
    ]
    base = SandboxPolicy(workspace=workspace)
    policy = suite.policy(task, base)
    assert repo.root in policy.hidden and repo.root / ".git" in policy.hidden
    assert (repo.root / ".venv").resolve() in policy.read_only


def test_format_on_is_refused(mined_python: Any) -> None:
    suite = load_repo_suite(mined_python.repo.root)
    with pytest.raises(UsageError, match="--format on"):
        suite.check_settings(run_settings(format="on"))
    suite.check_settings(run_settings(format="off"))
    assert all(t.check.timeout_s == 300 for t in suite.tasks())


def test_moved_checkout_uses_its_own_root(mined_python: Any, tmp_path: Path) -> None:
    moved = tmp_path / "moved"
    shutil.copytree(mined_python.repo.root, moved, symlinks=True)
    suite = load_repo_suite(moved / "tests")
    assert suite.root == moved.resolve()
    assert suite.saved.root == str(moved.resolve())
    task = suite.tasks()[0]
    assert anyio.run(lambda: self_test(suite, task, solved=True)).passed


def test_cache_reproves_only_new_candidates(
    mined_python: Any, tmp_path: Path, git_repo: Any
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(mined_python.repo.root, copy, symlinks=True)
    repo = git_repo.__new__(git_repo)
    repo.root = copy
    calc = (copy / "src" / "calc.py").read_text()
    new = repo.commit(
        "Add square",
        {
            "src/calc.py": calc + "\n\ndef square(a):\n    return a * a\n",
            "tests/test_square.py": "from calc import square\n\n\ndef test_square():\n"
            "    assert square(4) == 16\n",
        },
    )
    lines: list[str] = []
    assert GitSuiteBuilder().build({}, cwd=copy, echo=lines.append) == 0
    proved = [line for line in lines if line.startswith("[") and "(cached)" not in line]
    cached = [line for line in lines if line.startswith("[") and line.endswith("(cached)")]
    assert len(proved) == 1 and proved[0].split()[1] == new[:12]
    assert len(cached) == 7
    saved = json.loads((copy / SUITE_FILE).read_text())
    assert saved["tasks"][0]["commit"] == new
    assert len(saved["tasks"]) == 4
