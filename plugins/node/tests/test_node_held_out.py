"""Held-out node tests renamed for one run: names drawn at random, the tests of a folder in one
file, each in a block of its own, and ids that are what the node-test runner reports, checked
on real ``node --test`` runs."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import anyio
import pytest

from garuda_evals.environment import check_environment
from garuda_evals.errors import FileFormatError
from garuda_evals.executors.host import HostExecutor
from garuda_evals.models.task import HeldOut, Task
from garuda_evals.testing import run_garuda
from garuda_evals_node.canaries import PHRASES, WORDS
from garuda_evals_node.check import NodeTestCheckRunner
from garuda_evals_node.held_out import held_out_run
from garuda_evals_node.jsscan import ScanError, scan
from garuda_evals_node.suites import suite_root

RUN = (
    "shopt -s globstar nullglob; node --test --test-reporter=junit --test-reporter-destination={junit} "
    "test/**/*.test.js test/**/*.test.mjs test/**/*.test.cjs"
)
ESM_HEAD = (
    "import { test, describe, it, beforeEach } from 'node:test';\n"
    "import assert from 'node:assert/strict';\n"
    "import { add } from '../src/add.js';\n"
)
CJS_HEAD = (
    "const { test, describe, it } = require('node:test');\n"
    "const assert = require('node:assert/strict');\n"
    "const { add } = require('../src/add.cjs');\n"
)
HELD_OUT = (
    ESM_HEAD
    + """
// a comment that names the kind: held-out
const two = 2;

test('adds two numbers', () => {
  assert.equal(add(two, 3), 5);
});

describe('in a group', () => {
  let base;
  beforeEach(() => { base = 10; });
  it('adds to the base', () => { assert.equal(add(base, 1), 11); });
  describe("deeper, with 'quotes'", () => {
    it(`adds a negative`, async () => { assert.equal(add(base, -4), 6); });
  });
});

test('adds zero', () => assert.equal(add(two, 0), 2))
"""
)
CANARIES = (
    ESM_HEAD
    + """
const two = 2;

test('adds two numbers a', () => {
  assert.equal(add(two, 3), 6);
});

test('adds two numbers b', () => {
  assert.equal(add(two, 3), 23);
});

describe('in a group', () => {
  let base;
  beforeEach(() => { base = 10; });
  it('adds to the base a', () => { assert.equal(add(base, 1), 101); });
  it('adds to the base b', () => { assert.equal(add(base, 1), 9); });
});
"""
)
CJS_HELD_OUT = CJS_HEAD + "\ntest('adds in commonjs', () => {\n  assert.equal(add(1, 1), 2);\n});\n"
CJS_CANARY = CJS_HEAD + "\ntest('adds in commonjs a', () => {\n  assert.equal(add(1, 1), 3);\n});\n"
NAME = re.compile(rf"^test/(?:{'|'.join(WORDS)})-(?:{'|'.join(WORDS)})\.test\.(?:js|mjs|cjs)$")


def _project(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "test").mkdir()
    (tmp_path / "package.json").write_text('{ "type": "module" }\n')
    (tmp_path / "src/add.js").write_text("export const add = (a, b) => a + b;\n")
    (tmp_path / "src/add.cjs").write_text("exports.add = (a, b) => a + b;\n")
    (tmp_path / "test/add.test.js").write_text(
        ESM_HEAD + "test('visible', () => assert.equal(add(1, 2), 3));\n"
    )
    return tmp_path


def _task(held_out: HeldOut) -> Task:
    return Task.model_validate(
        {
            "id": "t",
            "title": "t",
            "prompt": "p",
            "files": {"package.json": '{ "type": "module" }\n', "test/add.test.js": ""},
            "check": {"command": RUN, "runner": "node-test"},
            "held_out": held_out.model_dump(),
        }
    )


HELD = HeldOut(
    tests={"test/more.test.js": HELD_OUT, "test/common.test.cjs": CJS_HELD_OUT},
    canaries={"test/more.test.js": CANARIES, "test/common.test.cjs": CJS_CANARY},
)


def _outcomes(workspace: Path, files: dict[str, str]) -> dict[str, str]:
    """Write ``files`` into ``workspace``, run the check, and read the runner's evidence."""
    for path, text in files.items():
        (workspace / path).write_text(text)
    runner = NodeTestCheckRunner()
    plan = runner.plan(RUN, workspace)
    result = anyio.run(
        lambda: HostExecutor().run(
            plan.command, cwd=workspace, env=check_environment(), timeout_s=120
        )
    )
    return {case.id: case.outcome for case in runner.evidence(plan, workspace, result).cases}


def test_node_held_out_ids_are_what_the_runner_reports(node, tmp_path: Path) -> None:
    """Every planted case is a known id: held-out tests pass, canaries fail, and the only
    other case is the task's own test."""
    workspace = _project(tmp_path)
    run = NodeTestCheckRunner().held_out(_task(HELD), workspace, "n0nce")
    assert run is not None
    outcomes = _outcomes(workspace, dict(run.files))
    assert {test: outcomes.get(test) for test in run.must_pass} == dict.fromkeys(
        run.must_pass, "passed"
    )
    assert {test: outcomes.get(test) for test in run.must_fail} == dict.fromkeys(
        run.must_fail, "failed"
    )
    assert set(outcomes) - {*run.must_pass, *run.must_fail} == {"test/add.test.js::visible"}
    given = {*run.must_pass.values()}
    assert given == {
        "test/more.test.js::adds two numbers",
        "test/more.test.js::in a group",
        "test/more.test.js::in a group > adds to the base",
        "test/more.test.js::in a group > deeper, with 'quotes'",
        "test/more.test.js::in a group > deeper, with 'quotes' > adds a negative",
        "test/more.test.js::adds zero",
        "test/common.test.cjs::adds in commonjs",
    }
    assert len(run.must_fail) == 7  # 5 tests, 2 of them in a group


ESM_ONLY = HeldOut(tests={"test/more.test.js": HELD_OUT}, canaries={"test/more.test.js": CANARIES})


@pytest.mark.parametrize("code", ["solved", "an export missing", "the module missing"])
def test_node_held_out_tests_run_in_the_runners_canary_file(
    node, tmp_path: Path, code: str
) -> None:
    """ES modules in the canary's folder: the held-out tests and canaries go into the
    runner's canary file (node starts no process more for them). A module that cannot be
    loaded fails them one by one and leaves the runner's canary as it is."""
    workspace = _project(tmp_path)
    if code == "an export missing":
        (workspace / "src/add.js").write_text("export const sum = (a, b) => a + b;\n")
    elif code == "the module missing":
        (workspace / "src/add.js").unlink()
    runner, task = NodeTestCheckRunner(), _task(ESM_ONLY)
    canaries = runner.canaries(task, workspace, "n0nce")
    run = runner.held_out(task, workspace, "n0nce")
    assert canaries is not None and run is not None and run.files == {}
    (path,) = canaries.files
    assert {test.split("::")[0] for test in [*run.must_pass, *run.must_fail]} == {path}
    assert (len(run.must_pass), len(run.must_fail)) == (7, 6)  # groups judged with their tests
    outcomes = _outcomes(workspace, dict(canaries.files))
    assert (outcomes[canaries.must_fail], outcomes[canaries.must_pass]) == ("failed", "passed")
    assert {outcomes.get(test) for test in run.must_fail} == {"failed"}
    assert {outcomes.get(test) for test in run.must_pass} == {
        "passed" if code == "solved" else "failed"
    }


def test_node_held_out_tests_elsewhere_get_files_of_their_own(tmp_path: Path) -> None:
    """A held-out file with another suffix than the canary's (here CommonJS beside ES
    modules) keeps the held-out tests out of the canary file; so does ``forget``."""
    workspace = _project(tmp_path)
    runner = NodeTestCheckRunner()
    canaries = runner.canaries(_task(HELD), workspace, "n0nce")
    run = runner.held_out(_task(HELD), workspace, "n0nce")
    assert canaries is not None and run is not None and len(run.files) == 2
    assert "adds" not in next(iter(canaries.files.values()))
    runner.canaries(_task(ESM_ONLY), workspace, "n0nce")
    runner.forget(workspace)
    again = runner.held_out(_task(ESM_ONLY), workspace, "n0nce")
    assert again is not None and len(again.files) == 1


def _blocks(text: str) -> list[str]:
    """The top-level blocks of a merged file (none of these tests has a line ``}`` alone)."""
    return re.findall(r"^\{\n(.*?)^\}\n", text, re.M | re.S)


def _tests(text: str) -> list[str]:
    """The test and group calls at the top of ``text``, or of its blocks: each starts a line."""
    inner = "".join(_blocks(text)) or text
    return re.findall(r"^(?:test|describe)\(.*?(?=^(?:test|describe)\(|\Z)", inner, re.M | re.S)


def test_node_held_out_tests_share_a_file(node, tmp_path: Path) -> None:
    """One file per folder and suffix (node starts a process per file): a held-out file and
    its canaries written alike share one copy of their imports and code, then every test
    under new names; no comment is left, and a test differs from its canaries only in what
    it asserts."""
    run = held_out_run(HELD.tests, HELD.canaries, {"test/add.test.js"})
    assert len(run.files) == 2
    for path, text in run.files.items():
        assert NAME.match(path), path
        assert path.endswith(".cjs") is ("require(" in text)
        assert "comment" not in text and "held-out" not in text and "\n\n" not in text
        assert all(phrase not in text for phrase in ("adds two", "adds to the", "adds zero"))
        calls = _tests(text)
        assert len(calls) == (2 if path.endswith(".cjs") else 8)
        assert all(len(scan(call).chains()) == 1 for call in calls)
    esm = next(text for path, text in run.files.items() if path.endswith(".js"))
    assert esm.startswith(ESM_HEAD) and esm.count("const two = 2;") == 1  # once
    first = next(call for call in _tests(esm) if "add(two, 3), 5)" in call)
    canary = next(call for call in _tests(esm) if "add(two, 3), 6)" in call)
    assert _shape(first) == _shape(canary)


def test_node_held_out_files_of_different_code_share_a_file_a_block_each() -> None:
    """Sources whose code around the tests differs: the imports once at the top, each
    source's code and tests in a block of its own."""
    held = ESM_HEAD + "const two = 2;\ntest('x', () => assert.equal(add(two, 1), 3));\n"
    canary = held.replace("const two = 2;", "const two = 1 + 1;").replace(", 3)", ", 4)")
    run = held_out_run({"test/a.test.js": held}, {"test/a.test.js": canary}, ())
    (text,) = run.files.values()
    assert text.startswith(ESM_HEAD) and len(_blocks(text)) == 2
    assert "import" not in "".join(_blocks(text))
    assert sorted(block.splitlines()[0] for block in _blocks(text)) == [
        "const two = 1 + 1;",
        "const two = 2;",
    ]


@pytest.mark.parametrize(
    ("top", "files"),
    [
        ("beforeEach(() => {});", 2),  # would run around every test of a shared file
        ("globalThis.seen = [];", 2),
        ("const url = new URL('../src/add.js', import.meta.url);", 2),
        ("setUp();", 2),
        ("const total = add(1, 2);", 2),
        ("const ones = [1, 1];\nfunction twice(n) { return add(n, n); }", 1),  # declarations
        # an arrow's body without braces is read as a call: a file each, which costs only time
        ("const helper = (n) => add(n, 1);", 2),
        ("const helper = (n) => {\n  return add(n, 1);\n};", 1),
    ],
)
def test_node_held_out_tests_share_a_file_only_when_their_top_level_does_nothing(
    top: str, files: int
) -> None:
    """Sources of different code share a file only when that code does nothing when it runs
    (it would run once per source in one process); each keeps its code once either way."""
    held = ESM_HEAD + top + "\ntest('x', () => assert.equal(add(1, 1), 2));\n"
    canary = held.replace(
        "'x', () => assert.equal(add(1, 1), 2)", "'y', () => assert.equal(add(1, 1), 3)"
    )
    other = canary.replace(top, top + "\nconst other = 1;")
    run = held_out_run({"test/top.test.js": held}, {"test/top.test.js": other}, ())
    assert len(run.files) == files
    assert all(text.startswith(ESM_HEAD) for text in run.files.values())
    assert sum(text.count(top) for text in run.files.values()) == 2
    alike = held_out_run({"test/top.test.js": held}, {"test/top.test.js": canary}, ())
    (text,) = alike.files.values()  # the same code around: one file, the code once
    assert text.count(top) == 1 and len(_tests(text)) == 2


def test_node_held_out_tests_that_cannot_share_get_files_of_their_own() -> None:
    """One name bound to two modules cannot be imported twice: such tests keep a file each;
    imports of one module are joined."""
    other = ESM_HEAD.replace("../src/add.js", "../src/other.js")
    body = "test('x', () => assert.equal(add(1, 1), 2));\n"
    apart = held_out_run({"test/a.test.js": ESM_HEAD + body}, {"test/a.test.js": other + body}, ())
    assert len(apart.files) == 2

    joined = held_out_run(
        {"test/a.test.js": "import { test } from 'node:test';\nimport { a } from './m.js';\n"
         "test('x', () => {});\n"},
        {"test/a.test.js": "import { test } from 'node:test';\nimport { b as c } from './m.js';\n"
         "test('y', () => {});\n"},
        (),
    )  # fmt: skip
    (text,) = joined.files.values()
    assert text.count("from './m.js'") == 1
    assert ("import { a, b as c } from './m.js';" in text) or (
        "import { b as c, a } from './m.js';" in text
    )


def _shape(text: str) -> str:
    """``text`` with every string and number blanked."""
    return re.sub(r"\d+", "0", re.sub(r"'[^']*'", "''", text))


def test_node_held_out_names_are_drawn_at_random_not_from_the_nonce() -> None:
    """One generator gives the same files; another, or the system's, other names (none comes
    from the nonce, which the runner's canary shows); a test's name is one of the canaries'
    phrases, so it says nothing of its kind."""
    one = held_out_run(HELD.tests, HELD.canaries, (), random.Random(3))
    assert one == held_out_run(HELD.tests, HELD.canaries, (), random.Random(3))
    other = held_out_run(HELD.tests, HELD.canaries, (), random.Random(13))
    assert set(one.files) != set(other.files)
    assert set(one.must_pass) != set(other.must_pass)
    drawn = [held_out_run(HELD.tests, HELD.canaries, ()) for _ in range(3)]
    assert len({frozenset(run.files) for run in drawn}) > 1
    leaves = [test.split("::")[1].split(" > ")[-1] for test in [*one.must_pass, *one.must_fail]]
    assert all(leaf in PHRASES or leaf.split()[-1] in WORDS for leaf in leaves)
    path, esm = next((path, text) for path, text in one.files.items() if path.endswith(".js"))
    tops = {test.split("::")[1].split(" > ")[0] for test in one.must_pass if path in test}
    top = re.compile(r"^(?:test|describe)\('([^']*)'", re.M)
    order = [top.findall(call)[0] in tops for call in _tests(esm)]
    assert order != sorted(order) and order != sorted(order, reverse=True)


def test_node_held_out_names_never_clash_with_files_already_there(tmp_path: Path) -> None:
    """Paths in the folder (the task's tests, the runner's canary, the agent's files) are
    never reused, and names run out into numbered ones, not into a clash."""
    words = WORDS[:-1]  # every pair of these is taken: only pairs with the last word are free
    taken = {f"test/{a}-{b}.test.js" for a in words for b in words}
    run = held_out_run(HELD.tests, HELD.canaries, taken)
    assert not set(run.files) & taken
    assert len(set(run.files)) == 2
    everything = {f"test/{a}-{b}.test.js" for a in WORDS for b in WORDS}
    full = held_out_run({"test/more.test.js": HELD_OUT}, {}, everything)
    assert all(re.match(r"test/\w+-\w+-\d+\.test\.js$", path) for path in full.files)

    workspace = _project(tmp_path)
    for path in sorted(taken)[:40]:
        (workspace / path).write_text("")
    task = _task(HeldOut(tests={"test/more.test.js": HELD_OUT}, canaries={}))
    held = NodeTestCheckRunner().held_out(task, workspace, "n0nce")
    assert held is not None
    assert not set(held.files) & {p.relative_to(workspace).as_posix() for p in workspace.rglob("*")}


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("test.only('x', () => {});\n", "line 1: test.only() is not supported"),
        (
            "for (const n of [1]) {\n  test(`n${n}`, () => {});\n}\n",
            "line 2: test() inside other code",
        ),
        (
            "const name = 'x';\ntest(name, () => {});\n",
            "line 2: the name of test() must be a string literal",
        ),
        ("test(`x ${1}`, () => {});\n", "the name of test() must be a string literal"),
        ("test('x', () => {}); test('y', () => {});\n", "line 1: nothing may follow test()"),
        ("const x = 1; test('x', () => {});\n", "line 1: test() must start its line"),
        ("test('x', () => {\n  test('y', () => {});\n});\n", "line 2: test() inside other code"),
        ("describe('x', () => {\n", "line 1: unclosed bracket"),
        ("test('x', () => {}));\n", "line 1: unbalanced ')'"),
        ("const x = 'open;\n", "line 1: unterminated string"),
        ("describe('x');\n", "line 1: describe() needs a function with a body"),
        ("import { test } from 'node:test';\n", "no test() or it() call found"),
    ],
)
def test_node_held_out_files_it_cannot_split_are_refused(text: str, error: str) -> None:
    with pytest.raises(ScanError, match=re.escape(error)):
        scan(text)


def test_node_held_out_errors_name_the_task_file() -> None:
    with pytest.raises(FileFormatError, match=r"^canaries/test/more\.test\.js: line 1: test\.skip"):
        held_out_run({}, {"test/more.test.js": "test.skip('x', () => {});\n"}, ())
    with pytest.raises(
        FileFormatError, match=r"^heldout/test/more\.js: a held-out test file is named"
    ):
        held_out_run({"test/more.js": HELD_OUT}, {}, ())
    with pytest.raises(FileFormatError, match=r"^heldout/test/more\.test\.js: two tests named 'x'"):
        held_out_run(
            {"test/more.test.js": "test('x', () => {});\ntest('x', () => {});\n"}, {}, (), "n"
        )


def test_node_held_out_scanner_skips_strings_comments_and_regular_expressions() -> None:
    """Calls written inside strings, templates, comments or regular expressions are text."""
    text = (
        "const a = 'test(\"no\", () => {})'; // test('no', () => {})\n"
        "/* describe('no', () => {\n */\n"
        "const b = `test('no') ${ `${'}'}` } {`;\n"
        "const c = /test\\('no'\\)[/\"'`]/g, d = 4 / 2 / 1;\n"
        "function it(x) { return x; }\n"
        "test('yes \\'quoted\\' \\u{1F600}', () => { if (a / b) return /[)]/.test(c); });\n"
    )
    [[call]] = scan(text).chains()
    assert call.title == "yes 'quoted' \U0001f600"


def test_node_held_out_a_file_it_cannot_split_is_one_line_of_suite_check(
    node, tmp_path: Path
) -> None:
    """``garuda suite check`` names the task's file and line as the task's problem (exit 2),
    not a traceback."""
    root = tmp_path / "suite"
    basic = suite_root("basic")
    shutil.copytree(basic / "shared", root / "shared")
    shutil.copy(basic / "suite.toml", root / "suite.toml")
    shutil.copytree(basic / "fix-failing-test", root / "fix-failing-test")
    held = next((root / "fix-failing-test" / "heldout").rglob("*.test.js"))
    held.write_text(held.read_text().replace("\ntest(", "\ntest.only(", 1))
    done = run_garuda(
        "suite", "check", str(root), "--executor", "host", "--repeat", "1", cwd=tmp_path
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    where = held.relative_to(root / "fix-failing-test").as_posix()
    assert f"- cannot be judged: {where}: line 5: test.only() is not supported" in done.stdout
