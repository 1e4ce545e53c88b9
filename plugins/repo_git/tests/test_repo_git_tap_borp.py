"""tap and borp get their evidence for free: their own JUnit reporters, with what is not a test
left out (a printed TAP ``ok`` line, node's stand-in for a test file that defined no test).

Each project is a real git repository with a fix and its test, ``"test": "tap"`` or
``"test": "borp"`` in package.json, the runners from npm (installed once, cached).
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest

from garuda_evals.api import GarudaError
from garuda_evals.testing import self_test
from garuda_evals_repo_git.reports import read_results
from garuda_evals_repo_git.suite import load_repo_suite

LIB = "module.exports = {\n  clamp: (x, lo, hi) => x,\n};\n"
LIB_FIXED = "module.exports = {\n  clamp: (x, lo, hi) => Math.min(Math.max(x, lo), hi),\n};\n"
TAP_TEST = (
    "const t = require('tap');\nconst { clamp } = require('../lib.js');\n\n"
    "t.test('cuts a value above', async (t) => { t.equal(clamp(12, 0, 9), 9); });\n"
    "t.test('lifts a value below', async (t) => { t.equal(clamp(-3, 0, 9), 0); });\n"
)
BORP_TEST = (
    "const test = require('node:test');\nconst assert = require('node:assert');\n"
    "const { clamp } = require('../lib.js');\n\n"
    "test('cuts a value above', () => assert.strictEqual(clamp(12, 0, 9), 9));\n"
    "test('lifts a value below', () => assert.strictEqual(clamp(-3, 0, 9), 0));\n"
)
# A test file that runs no test and prints what tap reads as passing tests.
FAKE_TAP = "console.log('TAP version 14');\nconsole.log('ok 1 - works');\nconsole.log('1..1');\n"


def _project(repo_kit: Any, folder: Path, runner: str, test: str, modules: Path) -> Any:
    repo = repo_kit.GitRepo(folder)
    package = json.dumps({"name": "clamp", "version": "1.0.0", "scripts": {"test": runner}})
    repo.commit(
        "Start", {".gitignore": "node_modules\n.tap\n", "package.json": package, "lib.js": LIB}
    )
    sha = repo.commit("Clamp for real", {"lib.js": LIB_FIXED, "test/clamp.test.js": test})
    (repo.root / "node_modules").symlink_to(modules, target_is_directory=True)
    return repo, sha


@pytest.fixture(scope="module")
def projects(
    tap_borp: Path, repo_kit: Any, tmp_path_factory: pytest.TempPathFactory
) -> SimpleNamespace:
    """The tap project and the borp project, each mined once with the detected command."""
    base = tmp_path_factory.mktemp("tap-borp")
    found = {}
    for runner, test in (("tap", TAP_TEST), ("borp", BORP_TEST)):
        repo, sha = _project(repo_kit, base / runner, runner, test, tap_borp)
        found[runner] = SimpleNamespace(
            repo=repo, sha=sha, mined=repo_kit.mine(repo, {}, repo.root, mutants=0)
        )
    return SimpleNamespace(**found)


@pytest.mark.parametrize(
    ("runner", "expected"),
    [
        (
            "tap",
            ["test/clamp.test.js::cuts a value above", "test/clamp.test.js::lifts a value below"],
        ),
        ("borp", ["test::cuts a value above", "test::lifts a value below"]),
    ],
)
def test_the_fix_is_mined_and_proved(
    projects: SimpleNamespace, runner: str, expected: list[str]
) -> None:
    project = getattr(projects, runner)
    assert project.mined.code == 0, project.mined.output
    assert f"with 'node_modules/.bin/{runner}' (detected" in project.mined.output
    suite = load_repo_suite(project.repo.root)
    [task] = suite.tasks()
    assert task.metadata["commit"] == project.sha
    assert task.check.runner == f"repo-{runner}"
    assert task.expected_tests == expected
    assert anyio.run(lambda: self_test(suite, task, solved=True)).passed
    assert not anyio.run(lambda: self_test(suite, task, solved=False)).passed


# The agent's lib.js, unfixed: when loaded by the task's own test file it prints tap's lines
# for the expected tests and leaves with exit 0 before any test runs.
FAKE_LIB = (
    "if (process.argv[1].endsWith('clamp.test.js')) {\n"
    "  console.log('TAP version 14');\n"
    "  console.log('ok 1 - cuts a value above');\n"
    "  console.log('ok 2 - lifts a value below');\n"
    "  console.log('1..2');\n"
    "  process.exit(0);\n"
    "}\n" + LIB
)


@pytest.mark.parametrize("runner", ["tap", "borp"])
def test_fake_ok_lines_and_exit_0_do_not_pass(projects: SimpleNamespace, runner: str) -> None:
    project = getattr(projects, runner)
    suite = load_repo_suite(project.repo.root)
    [task] = suite.tasks()

    def plant(workspace: Path) -> None:
        (workspace / "lib.js").write_text(FAKE_LIB)

    verdict = anyio.run(lambda: self_test(suite, task, solved=False, edit=plant))
    assert not verdict.passed, runner
    assert "cuts a value above" in (verdict.reason or ""), verdict.reason


@pytest.mark.parametrize("runner", ["tap", "borp"])
def test_a_test_file_with_no_test_is_no_evidence(
    runner: str, repo_kit: Any, tmp_path: Path, tap_borp: Path
) -> None:
    """A commit whose test file prints ``ok`` and runs no test: the runner exits 0 and its
    report holds a passing case (the control), which the proof does not count."""
    repo, _ = _project(repo_kit, tmp_path / runner, runner, FAKE_TAP, tap_borp)
    from garuda_evals_repo_git.builder import GitSuiteBuilder

    lines: list[str] = []
    with pytest.raises(GarudaError, match="found no test at HEAD"):
        GitSuiteBuilder(commit_runs=1, parent_runs=1).build(
            {"mutants": 0}, cwd=repo.root, echo=lines.append
        )
    assert any("0 test(s) found" in line for line in lines), lines


def test_control_the_runners_own_reports_count_the_fakes(tmp_path: Path, tap_borp: Path) -> None:
    """Control: read as plain JUnit, tap's report of a printed ``ok`` and node's report of a
    file with no test each hold one passing test."""
    import subprocess

    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "fake.test.js").write_text(FAKE_TAP)
    (tmp_path / "node_modules").symlink_to(tap_borp, target_is_directory=True)
    for runner, flags in (
        ("tap", ["--disable-coverage", "--reporter=junit", "--reporter-file=tap.xml"]),
        ("borp", ["--reporter=junit:borp.xml"]),
    ):
        done = subprocess.run(
            [f"node_modules/.bin/{runner}", *flags, "test/fake.test.js"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        report = tmp_path / f"{runner}.xml"
        assert list((read_results(report) or {}).values()) == ["passed"], runner
        assert read_results(report, runner) in (None, {}), runner
