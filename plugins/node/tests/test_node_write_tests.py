"""The write-tests task: only tests that catch every planted bug pass, not any file."""

from __future__ import annotations

import hashlib
import json
import subprocess
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


def fingerprint_the_text(ws: Path) -> None:
    """Undo the old disguise (banner, helper names) and pass only on the original text."""
    original = json.dumps((ws / "src/ranges.js").read_text())
    _spec(
        ws,
        "import { readFileSync } from 'node:fs';\n"
        "const text = readFileSync(new URL('../src/ranges.js', import.meta.url), 'utf8')\n"
        "  .replace(/^\\/\\/ build .*\\n/, '').replace(/parsePart_[0-9a-f]+/g, 'parsePart');\n"
        f"const original = {original};\n"
        "for (const n of [1, 2, 3]) test(`text ${n}`, () => {\n"
        "  assert.equal(text, original); parseRanges('1');\n"
        "});\n",
    )


def fingerprint_the_function(ws: Path) -> None:
    """Pass only while ``parseRanges.toString()`` is the original function's text."""
    source = (ws / "src/ranges.js").read_text()
    original = json.dumps(source[source.index("export function") + len("export ") :])
    _spec(
        ws,
        f"const original = {original};\n"
        "const text = parseRanges.toString();\n"
        "for (const n of [1, 2, 3]) test(`function ${n}`, () => {\n"
        "  assert.ok(original.startsWith(text.replace(/parsePart_[0-9a-f]+/g, 'parsePart')));\n"
        "});\n",
    )


def fingerprint_the_heap(ws: Path) -> None:
    """Look for the mutants' edits in a heap snapshot (which holds the variant's text)."""
    _spec(
        ws,
        "import { getHeapSnapshot } from 'node:v8';\n"
        "let heap = '';\n"
        "for await (const chunk of getHeapSnapshot()) heap += chunk;\n"
        "const edits = [['page < ', 'end; page'], ['start < 0 ', '|| end < 0'], ['end > max ', '+ 1']];\n"
        "const mutant = edits.some(([a, b]) => heap.includes(a + b));\n"
        "for (const n of [1, 2, 3]) test(`heap ${n}`, () => { assert.ok(!mutant); });\n",
    )


def remember_earlier_runs(ws: Path) -> None:
    """Pass on the first run only (the real module ran first), through a file in TMPDIR."""
    _spec(
        ws,
        "import { existsSync, writeFileSync } from 'node:fs';\n"
        "import { tmpdir } from 'node:os';\n"
        "import { join } from 'node:path';\n"
        "const marker = join(tmpdir(), 'ranges-tests-ran-before');\n"
        "const first = !existsSync(marker);\n"
        "writeFileSync(marker, 'x');\n"
        "for (const n of [1, 2, 3]) test(`first ${n}`, () => { assert.ok(first); });\n",
    )


def remember_in_a_fixed_place(ws: Path) -> None:
    """The same through a fixed path outside the private folder."""
    (ws / "spec").mkdir(exist_ok=True)
    _spec(
        ws,
        "import { existsSync, writeFileSync } from 'node:fs';\n"
        "const marker = '/tmp/ranges-tests-ran-before';\n"
        "const first = !existsSync(marker);\n"
        "writeFileSync(marker, 'x');\n"
        "for (const n of [1, 2, 3]) test(`first ${n}`, () => { assert.ok(first); });\n",
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


REAL_FAILS = "FAIL tests in spec/ pass against src/ranges.js ("

CASES: list[tuple[Callable[[Path], None], str]] = [
    (no_tests, "no spec/*.test.js files"),
    (empty_file, "ended before reporting any test"),
    (trivial_test, "every test still passes: this mutant survived"),
    (weak_tests, "every test still passes: this mutant survived"),
    (exit_at_import, "ended before reporting any test"),
    (always_failing, "fail against src/ranges.js"),
    (compare_source, "fail against src/ranges.js"),
    (fingerprint_the_text, REAL_FAILS),
    (fingerprint_the_function, REAL_FAILS),
    (fingerprint_the_heap, REAL_FAILS),
    (remember_earlier_runs, "every test still passes: this mutant survived"),
    (remember_in_a_fixed_place, REAL_FAILS),
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


GOOD_TESTS = """\
import { describe, it } from 'node:test';
import assert from 'node:assert';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRanges } from '../src/ranges.js';

describe('parseRanges', () => {
  it('reads a spec saved in a temporary file', () => {
    const folder = mkdtempSync(join(tmpdir(), 'spec-'));
    writeFileSync(join(folder, 'spec.txt'), ' 3-4 , 1 ');
    assert.deepStrictEqual(parseRanges(readFileSync(join(folder, 'spec.txt'), 'utf8')), [1, 3, 4]);
  });
  it('names the bad part', () => {
    assert.throws(() => parseRanges('1,0'), { name: 'SyntaxError', message: /"0"/ });
    assert.throws(() => parseRanges('2-1.5'), SyntaxError);
    assert.throws(() => parseRanges('5-3'), { name: 'RangeError', message: /5-3 runs backwards/ });
  });
  it('sorts, merges and keeps blank specs empty', () => {
    assert.deepStrictEqual(parseRanges('4-6,1,5'), [1, 4, 5, 6]);
    assert.deepStrictEqual(parseRanges(' \\t'), []);
    assert.throws(() => parseRanges('1, ,2'), SyntaxError);
  });
  it('stops at max', () => {
    assert.deepStrictEqual(parseRanges('2-3', { max: 3 }), [2, 3]);
    assert.throws(() => parseRanges('3-4', { max: 3 }), /after the last page 3/);
  });
});
"""


def test_other_good_tests_pass(node, self_tests) -> None:
    """Tests in another style (describe/it, a temporary file, error messages) are accepted."""

    def good_tests(ws: Path) -> None:
        (ws / "spec").mkdir()
        (ws / "spec/parse.test.js").write_text(GOOD_TESTS)

    verdict = self_tests(load_basic(), [(TASK, False, good_tests)])[(TASK, False, "good_tests")]
    assert verdict.passed, verdict.check.output_tail if verdict.check else verdict.reason


FUZZ = """\
import { readFileSync } from 'node:fs';
const load = async (path) => {
  const text = readFileSync(path, 'utf8');
  return (await import('data:text/javascript,' + encodeURIComponent(text))).parseRanges;
};
const [original, rewrite] = [await load(process.argv[2]), await load(process.argv[3])];
let seed = 7;
const next = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
const outcome = (fn, ...args) => {
  try { return JSON.stringify(fn(...args)); } catch (e) { return `${e.name}: ${e.message}`; }
};
const alphabet = ['1', '2', '3', '0', '9', '12', '-', '-', ',', ',', ' ', ' ', '.', 'x', '\\t', '007'];
const differ = [];
for (let round = 0; round < 20000; round += 1) {
  let spec = '';
  for (let i = next(9); i > 0; i -= 1) spec += alphabet[next(alphabet.length)];
  const options = [undefined, {}, { max: next(15) }, { max: '5' }, null][next(5)];
  const args = options === undefined ? [spec] : [spec, options];
  if (outcome(original, ...args) !== outcome(rewrite, ...args)) differ.push(args);
}
for (const odd of [undefined, null, 42, ['1'], '']) {
  if (outcome(original, odd) !== outcome(rewrite, odd)) differ.push([odd]);
}
console.log(JSON.stringify(differ.slice(0, 5)));
"""


def test_the_rewrite_behaves_like_the_module(node, tmp_path: Path) -> None:
    """The correct module written differently gives the same result or error on 20,000 inputs."""
    task = next(t for t in load_basic().tasks() if t.id == TASK)
    (tmp_path / "ranges.js").write_text(task.files["src/ranges.js"])
    (tmp_path / "rewrite.js").write_text(task.files[".check/rewrite.js"])
    (tmp_path / "fuzz.mjs").write_text(FUZZ)
    run = subprocess.run(
        [node, "fuzz.mjs", "ranges.js", "rewrite.js"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stdout.strip() == "[]", run.stdout
    assert task.files["src/ranges.js"] != task.files[".check/rewrite.js"]
