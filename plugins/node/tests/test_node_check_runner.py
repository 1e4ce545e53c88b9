"""The node-test check runner on real ``node --test`` reports."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import anyio
import pytest

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
    assert (evidence.tests_ran, evidence.failed) == (2, 1)
    assert "ended before reporting any test: a.test.js" in evidence.detail
    early = [case for case in evidence.cases if case.outcome == "failed"]
    assert [case.id.split("::")[0] for case in early] == ["test/a.test.js"]


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


def test_node_ids_name_the_file_and_the_describe_chain(node, tmp_path: Path) -> None:
    """The same test name in two files, or in two describe blocks, is two ids."""
    workspace = _project(
        tmp_path,
        "import { describe, it } from 'node:test';\n"
        "test('two', () => {});\n"
        "describe('outer', () => { it('two', () => {}); it('two', () => assert.fail('x')); });\n",
    )
    _, evidence = _judge(workspace)
    outcomes = {case.id: case.outcome for case in evidence.cases}
    assert outcomes == {
        "test/a.test.js::two": "passed",
        "test/a.test.js::outer > two": "passed",
        "test/a.test.js::outer > two (2)": "failed",
        "test/a.test.js::outer": "failed",
        "test/b.test.js::two": "passed",
    }


def _task(files: dict[str, str], command: str = COMMAND):  # type: ignore[no-untyped-def]
    from garuda_evals.models.task import Task

    return Task.model_validate(
        {
            "id": "t",
            "title": "t",
            "prompt": "p",
            "files": files,
            "check": {"command": command, "runner": "node-test"},
        }
    )


@pytest.mark.parametrize(
    ("package", "suffix", "module"),
    [
        ('{"type": "module"}', ".test.js", True),
        ("{}", ".test.js", False),
        ("{}", ".test.mjs", True),
    ],
)
def test_node_canaries_sit_with_the_tests_and_load_what_they_load(
    package: str, suffix: str, module: bool
) -> None:
    files = {
        "package.json": package,
        "src/a.js": "",
        "test/unit/a" + suffix: "import { a } from '../../src/a.js';\nimport './helper.js';\n",
        "test/unit/b" + suffix: "const { b } = require('../../src/b.js');\n",
        "test/c" + suffix: "",
    }
    canaries = NodeTestCheckRunner().canaries(_task(files), Path("/nowhere"), "n0nce")
    assert canaries is not None
    [(path, text)] = canaries.files.items()
    assert path.startswith("test/unit/") and path.endswith(suffix) and path not in files
    assert canaries.must_fail.startswith(f"{path}::") and canaries.must_pass.startswith(f"{path}::")
    assert ("import { test } from 'node:test'" in text) is module
    assert ("require('node:test')" in text) is not module
    assert 'import("../../src/a.js"), import("../../src/b.js"), import("./helper.js")' in text
    assert "'n0nce'" in text or '"n0nce"' in text


def test_node_no_canaries_for_a_check_that_is_not_node_test() -> None:
    files = {"package.json": "{}", "test/a.test.js": ""}
    task = _task(files, "node .check/mutation.mjs {junit}")
    assert NodeTestCheckRunner().canaries(task, Path("/nowhere"), "n") is None


def test_node_refuses_runner_configuration_and_addons() -> None:
    changed = ["src/a.js", "src/package.json", "lib/fast.node", ".npmrc", "node.config.json"]
    refused = NodeTestCheckRunner().refusals(_task({}), Path("/nowhere"), changed)
    assert [line.split(":")[0] for line in refused] == changed[1:]


def test_node_a_report_changed_after_node_is_one_error(node, tmp_path: Path) -> None:
    """A report rewritten after node wrote it no longer matches the digest node printed."""
    workspace = _project(tmp_path, "test('one', () => assert.fail('really fails'));\n")
    runner = NodeTestCheckRunner()
    plan = runner.plan(COMMAND, workspace)
    result = anyio.run(
        lambda: HostExecutor().run(
            plan.command, cwd=workspace, env=check_environment(), timeout_s=120
        )
    )
    assert runner.evidence(plan, workspace, result).failed == 1
    [report] = plan.evidence_paths
    forged = report.read_text().replace("<failure", "<ignored").replace("</failure>", "</ignored>")
    report.write_text(forged)
    evidence = runner.evidence(plan, workspace, result)
    assert [(case.outcome, case.message) for case in evidence.cases] == [
        ("error", "the report differs from the one node's reporter wrote")
    ]
    printed = replace(result, output=result.output + "\ngaruda-node-report " + "0" * 64 + "\n")
    assert "2 report digests" in runner.evidence(plan, workspace, printed).detail
    report.unlink()
    assert runner.evidence(plan, workspace, result).tests_ran is None
