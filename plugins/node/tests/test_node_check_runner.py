"""The node-test check runner on real ``node --test`` reports."""

from __future__ import annotations

from pathlib import Path

import anyio

from garuda_evals.environment import check_environment
from garuda_evals.executors.host import HostExecutor
from garuda_evals_node.check import NodeTestCheckRunner

COMMAND = (
    "node --test --test-reporter=junit --test-reporter-destination={junit} "
    "test/a.test.js test/b.test.js test/helpers.js"
)
HEAD = "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n"


def _judge(workspace: Path):  # type: ignore[no-untyped-def]
    runner = NodeTestCheckRunner()
    plan = runner.plan(COMMAND, workspace)
    assert "{junit}" not in plan.command
    result = anyio.run(
        lambda: HostExecutor().run(
            plan.command, cwd=workspace, env=check_environment(), timeout_s=120
        )
    )
    return result, runner.evidence(plan, workspace, result)


def _project(tmp_path: Path, a_test: str) -> Path:
    (tmp_path / "test").mkdir()
    (tmp_path / "package.json").write_text('{ "type": "module" }\n')
    (tmp_path / "test/helpers.js").write_text("export const two = () => 2;\n")
    (tmp_path / "test/a.test.js").write_text(HEAD + a_test)
    (tmp_path / "test/b.test.js").write_text(
        HEAD + "import { two } from './helpers.js';\ntest('two', () => assert.equal(two(), 2));\n"
    )
    return tmp_path


def test_node_helpers_are_not_counted_as_tests(node, tmp_path: Path) -> None:
    workspace = _project(tmp_path, "test('one', () => assert.ok(true));\n")
    result, evidence = _judge(workspace)
    assert result.exit_code == 0
    assert (evidence.tests_ran, evidence.failed) == (2, 0)


def test_node_a_test_file_that_exits_early_is_a_failure(node, tmp_path: Path) -> None:
    workspace = _project(tmp_path, "process.exit(0);\ntest('one', () => assert.fail());\n")
    result, evidence = _judge(workspace)
    assert result.exit_code == 0
    assert (evidence.tests_ran, evidence.failed) == (1, 1)
    assert "ended before reporting any test: a.test.js" in evidence.detail


def test_node_no_report_is_no_evidence(node, tmp_path: Path) -> None:
    workspace = _project(tmp_path, "test('one', () => {});\n")
    runner = NodeTestCheckRunner()
    plan = runner.plan("node -e 'process.exit(0)' {junit}", workspace)
    result = anyio.run(
        lambda: HostExecutor().run(
            plan.command, cwd=workspace, env=check_environment(), timeout_s=60
        )
    )
    assert runner.evidence(plan, workspace, result).tests_ran is None
