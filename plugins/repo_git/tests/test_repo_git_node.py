"""Mining a node --test project through npm test: package.json and lock-file rules."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import anyio
import pytest

from garuda_evals.testing import self_test, skip_or_fail
from garuda_evals_repo_git import prove, rules
from garuda_evals_repo_git.builder import GitSuiteBuilder
from garuda_evals_repo_git.suite import load_repo_suite
from garuda_evals_repo_git.suitefile import SUITE_FILE


@pytest.fixture(autouse=True)
def _need_node() -> None:
    if not (shutil.which("node") and shutil.which("npm")):
        skip_or_fail("node", "node and npm run the node --test project")


def test_node_kept_tasks_and_skip_reasons(mined_node: Any) -> None:
    assert mined_node.code == 0, mined_node.output
    saved = json.loads((mined_node.repo.root / SUITE_FILE).read_text())
    assert saved["testCommand"] == "node --test", "npm test's runner, called directly"
    assert [t["commit"] for t in saved["tasks"]] == [
        mined_node.shas["mean"],
        mined_node.shas["release"],
        mined_node.shas["max"],
    ]
    for reason in (
        rules.DEPENDENCIES,
        rules.LOCK_OR_MANIFEST,
        rules.ROOT_COMMIT,
        prove.ALREADY_PASS,
    ):
        assert f"   1  {reason}" in mined_node.output, (reason, mined_node.output)
    assert mined_node.repo.state() == mined_node.before


def test_node_check_calls_the_runner_directly(mined_node: Any) -> None:
    saved = json.loads((mined_node.repo.root / SUITE_FILE).read_text())
    mean = saved["tasks"][0]
    assert mean["checkCommand"].startswith("node --test ")
    assert "--test-reporter=junit" in mean["checkCommand"]
    assert mean["checkCommand"].endswith(" test/mean.test.js {canaries}")
    assert mean["checkRunner"] == "repo-node-test"
    assert mean["failToPass"] == ["test::mean"]
    assert mean["expectedTests"] == ["test::mean"]
    assert mean["protected"] == ["test/mean.test.js", "package.json"]
    release = saved["tasks"][1]
    assert release["protected"] == ["test/min.test.js"], "the commit changes package.json"


def test_node_oracle_passes_and_unsolved_fails(mined_node: Any) -> None:
    suite = load_repo_suite(mined_node.repo.root)
    for task in suite.tasks():
        solved = anyio.run(lambda t=task: self_test(suite, t, solved=True))
        assert solved.passed, (task.id, solved.reason, solved.check)
        unsolved = anyio.run(lambda t=task: self_test(suite, t, solved=False))
        assert not unsolved.passed, task.id
    release = next(t for t in suite.tasks() if t.metadata["commit"] == mined_node.shas["release"])
    assert release.solution is not None
    assert set(release.solution.files) == {"package.json", "src/math.js"}


def test_a_check_that_fails_where_the_script_passes_is_skipped(
    git_repo: Any, tmp_path: Path
) -> None:
    """``--test-command "npm test"`` proves through the script (``--env-file``, which the
    direct check leaves out): the check fails where the script passes."""
    repo = git_repo(tmp_path / "envjs")
    package = '{"name": "envjs", "scripts": {"test": "node --env-file=.env --test"}}\n'
    repo.commit(
        "Start",
        {"package.json": package, ".env": "MODE=strict\n", "src/mode.js": "module.exports = {};\n"},
    )
    needs_env = repo.commit(
        "Read the mode",
        {
            "src/mode.js": "module.exports = { mode: () => process.env.MODE };\n",
            "test/mode.test.js": "const test = require('node:test');\n"
            "const assert = require('node:assert');\nconst { mode } = require('../src/mode.js');\n"
            "test('mode', () => assert.strictEqual(mode(), 'strict'));\n",
        },
    )
    lines: list[str] = []
    options = {"test_command": "npm test"}
    assert GitSuiteBuilder().build(options, cwd=repo.root, echo=lines.append) == 1
    output = "\n".join(lines)
    assert f"{needs_env[:12]} Read the mode: skipped: {prove.CHECK_FAILS}" in output
    assert "First failure at a commit" in output and "'strict'" in output
