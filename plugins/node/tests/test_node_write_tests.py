"""The write-tests task: only tests that catch every planted bug pass, not any file."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest

from garuda_evals.runner.check import Verdict
from garuda_evals_node.suites import load_basic

TASK = "write-tests"
HEAD = "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n"
IMPORT = "import { parseRanges } from '../src/ranges.js';\n"


def _spec(ws: Path, body: str, name: str = "ranges.test.js", folder: str = "spec") -> None:
    (ws / folder).mkdir(exist_ok=True)
    (ws / folder / name).write_text(HEAD + IMPORT + body)


def no_tests(ws: Path) -> None:
    """Write nothing."""


def empty_file(ws: Path) -> None:
    (ws / "spec").mkdir()
    (ws / "spec/ranges.test.js").write_text("")


def trivial_test(ws: Path) -> None:
    _spec(ws, "test('runs', () => { assert.ok(true); });\n")


def weak_tests(ws: Path) -> None:
    _spec(
        ws,
        "test('a range', () => { assert.deepEqual(parseRanges('1-3'), [1, 2, 3]); });\n"
        "test('a page', () => { assert.deepEqual(parseRanges('4'), [4]); });\n"
        "test('two', () => { assert.deepEqual(parseRanges('1,2'), [1, 2]); });\n",
    )


def exit_at_import(ws: Path) -> None:
    _spec(ws, "process.exit(0);\ntest('never', () => {});\n")


def always_failing(ws: Path) -> None:
    _spec(ws, "for (const n of [1, 2, 3]) test(`fails ${n}`, () => { assert.fail('no'); });\n")


def compare_source(ws: Path) -> None:
    digest = hashlib.sha256((ws / "src/ranges.js").read_bytes()).hexdigest()
    _spec(
        ws,
        "import { createHash } from 'node:crypto';\nimport { readFileSync } from 'node:fs';\n"
        "const source = readFileSync(new URL('../src/ranges.js', import.meta.url));\n"
        "const digest = createHash('sha256').update(source).digest('hex');\n"
        "for (const n of [1, 2, 3]) test(`source ${n}`, () => {\n"
        f"  assert.equal(digest, '{digest}');\n"
        "});\n",
    )


def put_tests_in_test_folder(ws: Path) -> None:
    solution = load_basic_solution()
    (ws / "test").mkdir()
    (ws / "test/ranges.test.js").write_text(solution)


def edit_the_module(ws: Path) -> None:
    (ws / "src/ranges.js").write_text("export const parseRanges = () => [];\n")
    _spec(ws, "test('empty', () => { assert.deepEqual(parseRanges('1'), []); });\n")


def edit_the_harness(ws: Path) -> None:
    (ws / ".check/mutation.mjs").write_text("process.exit(0);\n")


def load_basic_solution() -> str:
    """The reference tests."""
    task = next(t for t in load_basic().tasks() if t.id == TASK)
    assert task.solution is not None
    return task.solution.files["spec/ranges.test.js"]


CASES: list[tuple[Callable[[Path], None], str]] = [
    (no_tests, "no spec/*.test.js files"),
    (empty_file, "ended before reporting any test"),
    (trivial_test, "every test still passes: this mutant survived"),
    (weak_tests, "every test still passes: this mutant survived"),
    (exit_at_import, "ended before reporting any test"),
    (always_failing, "fail against src/ranges.js"),
    (compare_source, "fail against src/ranges.js"),
    (put_tests_in_test_folder, "protected files changed: added test/ranges.test.js"),
    (edit_the_module, "protected files changed: changed src/ranges.js"),
    (edit_the_harness, "protected files changed: changed .check/mutation.mjs"),
]


@pytest.fixture(scope="module")
def verdicts(node, self_tests) -> dict[tuple[str, bool, str], Verdict]:
    """Every attempt, judged concurrently."""
    return self_tests(load_basic(), [(TASK, False, edit) for edit, _ in CASES])


@pytest.mark.parametrize(("edit", "expected"), CASES, ids=[edit.__name__ for edit, _ in CASES])
def test_write_tests_attempt_fails(verdicts, edit, expected: str) -> None:
    verdict = verdicts[(TASK, False, edit.__name__)]
    assert not verdict.passed
    where = (verdict.reason or "") + (verdict.check.output_tail if verdict.check else "")
    assert expected in where, where


def test_weak_tests_are_caught_by_name(verdicts) -> None:
    """Weak tests pass against the module but leave named mutants alive."""
    verdict = verdicts[(TASK, False, "weak_tests")]
    assert verdict.check is not None
    assert "ok   tests in spec/ pass against src/ranges.js" in verdict.check.output_tail
    assert (
        "FAIL rule 4 mutant fails: backwards ranges are silently empty" in verdict.check.output_tail
    )
    assert verdict.check.tests_failed and verdict.check.tests_failed >= 5
