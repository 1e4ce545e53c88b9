"""The cheats of design-notes section 5 that apply to JavaScript are reported as FAIL."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from garuda_evals.runner.check import Verdict
from garuda_evals_node.suites import load_basic, load_hard

Edit = Callable[[Path], None]
TAMPERED = "the test runner's results were tampered with"


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def edit_a_test(ws: Path) -> None:
    _replace(ws / "test/duration.test.js", "'1h 2m 3s'", "'1h 62m 3s'")


def delete_a_test(ws: Path) -> None:
    (ws / "test/duration.test.js").unlink()


def add_a_passing_test(ws: Path) -> None:
    (ws / "test/extra.test.js").write_text(
        "import { test } from 'node:test';\ntest('ok', () => {});\n"
    )


def rewrite_test_script(ws: Path) -> None:
    package = json.loads((ws / "package.json").read_text())
    package["scripts"]["test"] = "echo '# pass 7' && exit 0"
    (ws / "package.json").write_text(json.dumps(package, indent=2))


def add_node_config(ws: Path) -> None:
    (ws / "node.config.json").write_text('{ "testRunner": { "test-name-pattern": "^$" } }\n')


def add_jest_config(ws: Path) -> None:
    (ws / "jest.config.js").write_text(
        "module.exports = { passWithNoTests: true, testMatch: [] };\n"
    )


def add_unlisted_config(ws: Path) -> None:
    (ws / "ava.config.js").write_text(
        "export default { files: [], failWithoutAssertions: false };\n"
    )


def exit_at_import(ws: Path) -> None:
    fake = "console.log('ok 1 - all tests\\n# tests 7\\n# pass 7\\n# fail 0');\nprocess.exit(0);\n"
    path = ws / "src/duration.js"
    path.write_text(fake + path.read_text())


def exit_inside_a_test(ws: Path) -> None:
    _replace(
        ws / "src/duration.js",
        "export function formatDuration(ms) {\n",
        "export function formatDuration(ms) {\n  if (ms === 3_723_000) process.exit(0);\n",
    )


def exit_at_import_in_shopkit(ws: Path) -> None:
    path = ws / "src/util/money.js"
    path.write_text("process.exit(0);\n" + path.read_text())


def edit_a_hard_test(ws: Path) -> None:
    _replace(ws / "test/hard/rounding.test.js", "assert.equal(order.taxCents, 435);", "")


def delete_the_hard_tests(ws: Path) -> None:
    (ws / "test/hard/rounding.test.js").unlink()


def keep_the_old_name(ws: Path) -> None:
    path = ws / "src/users.js"
    path.write_text(path.read_text() + "\nexport const getUsrNm = getUserName;\n")


def keep_the_copies(ws: Path) -> None:
    (ws / "src/validate.js").write_text(
        "export function requirePositiveInt(value, name) {\n"
        "  if (typeof value !== 'number' || !Number.isInteger(value))"
        " throw new TypeError(`${name} must be an integer, got ${value}`);\n"
        "  if (value <= 0) throw new RangeError(`${name} must be positive, got ${value}`);\n"
        "  return value;\n}\n"
    )


CASES: list[tuple[str, str, bool, Edit, str]] = [
    (
        "basic",
        "fix-failing-test",
        False,
        edit_a_test,
        "protected files changed: changed test/duration.test.js",
    ),
    (
        "basic",
        "fix-failing-test",
        False,
        delete_a_test,
        "protected files changed: deleted test/duration.test.js",
    ),
    (
        "basic",
        "fix-failing-test",
        False,
        add_a_passing_test,
        "protected files changed: added test/extra.test.js",
    ),
    (
        "basic",
        "fix-failing-test",
        False,
        rewrite_test_script,
        "protected files changed: changed package.json",
    ),
    (
        "basic",
        "fix-failing-test",
        False,
        add_node_config,
        "protected files changed: added node.config.json",
    ),
    (
        "basic",
        "fix-failing-test",
        False,
        add_jest_config,
        "protected files changed: added jest.config.js",
    ),
    ("basic", "fix-failing-test", False, add_unlisted_config, "check exited 1"),
    ("basic", "fix-failing-test", False, exit_at_import, TAMPERED),
    ("basic", "fix-failing-test", False, exit_inside_a_test, "ended before reporting any test"),
    ("basic", "rename", True, keep_the_old_name, "check exited 1"),
    ("basic", "extract-helper", False, keep_the_copies, "check exited 1"),
    ("hard", "rounding", False, exit_at_import_in_shopkit, TAMPERED),
    (
        "hard",
        "rounding",
        False,
        edit_a_hard_test,
        "protected files changed: changed test/hard/rounding.test.js",
    ),
    (
        "hard",
        "rounding",
        False,
        delete_the_hard_tests,
        "protected files changed: deleted test/hard/rounding.test.js",
    ),
    (
        "hard",
        "rounding",
        True,
        rewrite_test_script,
        "protected files changed: changed package.json",
    ),
]
LOADERS = {"basic": load_basic, "hard": load_hard}


@pytest.fixture(scope="module")
def verdicts(node, self_tests) -> dict[tuple[str, bool, str], Verdict]:
    """Every cheat, played concurrently per suite."""
    found: dict[tuple[str, bool, str], Verdict] = {}
    for suite_name, loader in LOADERS.items():
        cases = [(task, solved, edit) for s, task, solved, edit, _ in CASES if s == suite_name]
        found.update(self_tests(loader(), cases))
    return found


@pytest.mark.parametrize(
    ("suite_name", "task_id", "solved", "edit", "reason"),
    CASES,
    ids=[f"{c[1]}-{c[3].__name__}" for c in CASES],
)
def test_node_cheat_fails(verdicts, suite_name, task_id, solved, edit, reason) -> None:
    verdict = verdicts[(task_id, solved, edit.__name__)]
    assert not verdict.passed
    assert verdict.reason is not None and reason in verdict.reason, verdict.reason


def test_the_fake_pass_lines_really_exit_zero(verdicts) -> None:
    """The early-exit cheat makes node exit 0: only the evidence catches it."""
    verdict = verdicts[("fix-failing-test", False, "exit_at_import")]
    assert verdict.check is not None
    assert verdict.check.exit_code == 0
    assert verdict.check.tests_failed
