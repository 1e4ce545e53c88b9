"""Canary tests for repo checks: placed and named like the task's own test files.

Each check gets one file beside a test file of the task, named in the same pattern, with
two tests: one that must pass and one that must fail with the run's nonce in its message.
Their ids are what the runner's report will call them (pytest's module path as rootdir
shows it, vitest's file path, node's ``test`` class name, Jest's full test name).

JavaScript runners run each test file in its own process or module registry, so a JS
canary file first loads the task's test file beside it (and with it the code under test):
whatever that code patches when loaded is patched for the canaries too.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from garuda_evals.api import Canaries, Task

WORDS = (
    "batch", "bound", "cache", "count", "empty", "entry", "field", "first", "format", "group",
    "index", "limit", "merge", "order", "parse", "range", "round", "shape", "split", "state",
    "token", "total", "value", "width",
)  # fmt: skip
JS_TEST = re.compile(r"^(?P<stem>.*?)(?P<suffix>[._-](test|spec)\.[cm]?[jt]sx?)$")
JS_SUFFIXES = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx")


def _words(rng: random.Random, count: int = 2) -> list[str]:
    return rng.sample(WORDS, count)


def _anchor(task: Task, suffixes: tuple[str, ...], workspace: Path) -> str | None:
    """The first of the task's test files the runner runs (sorted, so each run agrees)."""
    for path in sorted(task.files):
        if path.endswith(suffixes) and (workspace / path).is_file():
            return path
    return None


def _free(workspace: Path, folder: PurePosixPath, names: Iterable[str]) -> str | None:
    for name in names:
        relative = str(folder / name)
        if not (workspace / relative).exists():
            return relative
    return None


def _numbers(rng: random.Random) -> tuple[int, int]:
    return rng.randint(2, 60), rng.randint(2, 60)


def rootdir_prefix(module: str, classnames: Iterable[str]) -> str:
    """What the report leaves off a module's dotted path (its rootdir's own path).

    ``tests.test_a`` reported as ``test_a`` (a config file in ``tests/``) gives ``tests.``.
    """
    for classname in classnames:
        parts = classname.split(".")
        for end in range(len(parts), 0, -1):
            reported = ".".join(parts[:end])
            if module == reported:
                return ""
            if module.endswith(f".{reported}"):
                return module[: -len(reported)]
    return ""


def _test_prefix(task: Task) -> str:
    for test in task.expected_tests or []:
        found = re.match(r"[A-Za-z]+_?", test.rsplit("::", 1)[-1])
        if found:
            return found.group(0)
    return "test_"


def _pytest_anchor(task: Task, workspace: Path) -> str | None:
    modules = [
        path
        for path in sorted(task.files)
        if path.endswith(".py") and (workspace / path).is_file()
        if PurePosixPath(path).name not in ("conftest.py", "__init__.py")
    ]
    named = [p for p in modules if re.match(r"(test_.*|.*_test)\.py$", PurePosixPath(p).name)]
    return (named or modules or [None])[0]


def pytest_canaries(task: Task, workspace: Path, nonce: str) -> Canaries | None:
    """A ``test_*.py`` (or ``*_test.py``) module beside one of the task's test modules."""
    anchor = _pytest_anchor(task, workspace)
    if anchor is None:
        return None
    rng = random.Random(nonce)
    pure = PurePosixPath(anchor)
    trailing = pure.stem.endswith("_test") and not pure.stem.startswith("test_")
    names = [
        f"{'_'.join(_words(rng))}_test.py" if trailing else f"test_{'_'.join(_words(rng))}.py"
        for _ in range(5)
    ]
    relative = _free(workspace, pure.parent, names)
    if relative is None:
        return None
    prefix = _test_prefix(task)
    passing, failing = (f"{prefix}{'_'.join(_words(rng))}" for _ in range(2))
    a, b = _numbers(rng)
    text = (
        f"def {passing}():\n    assert {a} + {b} == {a + b}\n\n\n"
        f"def {failing}():\n    assert {a} * {b} == {a * b + 1}, {nonce!r}\n"
    )
    module = relative[: -len(".py")].replace("/", ".")
    classnames = [test.split("::", 1)[0] for test in task.expected_tests or [] if "::" in test]
    prefix = rootdir_prefix(anchor[: -len(".py")].replace("/", "."), classnames)
    classname = module.removeprefix(prefix)
    return Canaries(
        files={relative: text},
        must_fail=f"{classname}::{failing}",
        must_pass=f"{classname}::{passing}",
        args=(relative,),
    )


def unittest_canaries(task: Task, workspace: Path, nonce: str) -> Canaries | None:
    """A ``test_*.py`` module with one ``unittest.TestCase`` beside one of the task's test
    modules; ids are ``<dotted module>.<Class>::<method>`` as the unittest report names them."""
    anchor = _pytest_anchor(task, workspace)
    if anchor is None:
        return None
    rng = random.Random(nonce)
    folder = PurePosixPath(anchor).parent
    relative = _free(workspace, folder, [f"test_{'_'.join(_words(rng))}.py" for _ in range(5)])
    if relative is None:
        return None
    cls = "".join(word.title() for word in _words(rng)) + "Test"
    passing, failing = (f"test_{'_'.join(_words(rng))}" for _ in range(2))
    a, b = _numbers(rng)
    text = (
        f"import unittest\n\n\nclass {cls}(unittest.TestCase):\n"
        f"    def {passing}(self):\n        self.assertEqual({a} + {b}, {a + b})\n\n"
        f"    def {failing}(self):\n        self.assertEqual({a} * {b}, {a * b + 1}, {nonce!r})\n"
    )
    module = relative[: -len(".py")].replace("/", ".")
    return Canaries(
        files={relative: text},
        must_fail=f"{module}.{cls}::{failing}",
        must_pass=f"{module}.{cls}::{passing}",
        args=(relative,),
    )


def _js_file(anchor: str, rng: random.Random, workspace: Path) -> str | None:
    pure = PurePosixPath(anchor)
    found = JS_TEST.match(pure.name)
    suffix = found.group("suffix") if found else pure.suffix
    joiner = "-" if "-" in pure.name else "_"
    names = [f"{joiner.join(_words(rng))}{suffix}" for _ in range(5)]
    return _free(workspace, pure.parent, names)


def _is_esm(workspace: Path, anchor: str) -> bool:
    text = (workspace / anchor).read_text(encoding="utf-8", errors="replace")
    return bool(re.search(r"^\s*import\s", text, re.MULTILINE)) and "require(" not in text


def _load_anchor(anchor: str, esm: bool) -> str:
    """Load the task's test file first; its load error is the task's failure, not a canary's."""
    target = f"./{PurePosixPath(anchor).name}"
    load = f"await import('{target}')" if esm else f"require('{target}')"
    return f"try {{\n  {load};\n}} catch {{}}\n"


def _titles(rng: random.Random) -> tuple[str, str]:
    return " ".join(_words(rng, 3)), " ".join(_words(rng, 3))


class _JsPlan(NamedTuple):
    """A JS canary file's place beside a task test file, its two titles and its numbers."""

    anchor: str
    relative: str
    passing: str
    failing: str
    a: int
    b: int


def _js_plan(task: Task, workspace: Path, nonce: str) -> _JsPlan | None:
    """Where a JS canary goes and what it names and computes (None: no JS test to sit by)."""
    anchor = _anchor(task, JS_SUFFIXES, workspace)
    rng = random.Random(nonce)
    relative = _js_file(anchor, rng, workspace) if anchor else None
    if anchor is None or relative is None:
        return None
    passing, failing = _titles(rng)
    a, b = _numbers(rng)
    return _JsPlan(anchor, relative, passing, failing, a, b)


def node_canaries(task: Task, workspace: Path, nonce: str) -> Canaries | None:
    """A ``node:test`` file beside one of the task's (the same module style and suffix)."""
    plan = _js_plan(task, workspace, nonce)
    if plan is None:
        return None
    anchor, relative, passing, failing, a, b = plan
    esm = _is_esm(workspace, anchor)
    header = (
        "import test from 'node:test';\nimport assert from 'node:assert';\n"
        if esm
        else "const test = require('node:test');\nconst assert = require('node:assert');\n"
    ) + _load_anchor(anchor, esm)
    text = (
        f"{header}\ntest('{passing}', () => {{\n  assert.strictEqual({a} + {b}, {a + b});\n}});\n\n"
        f"test('{failing}', () => {{\n"
        f"  assert.strictEqual({a} * {b}, {a * b + 1}, '{nonce}');\n}});\n"
    )
    return Canaries(
        files={relative: text},
        must_fail=f"test::{failing}",
        must_pass=f"test::{passing}",
        args=(relative,),
    )


def _file_prefix(anchor: str, classnames: Iterable[str]) -> str:
    for classname in classnames:
        if anchor == classname:
            return ""
        if anchor.endswith(f"/{classname}"):
            return anchor[: -len(classname)]
    return ""


def vitest_canaries(task: Task, workspace: Path, nonce: str) -> Canaries | None:
    """A vitest file beside one of the task's; vitest names a test by its file path."""
    plan = _js_plan(task, workspace, nonce)
    if plan is None:
        return None
    anchor, relative, passing, failing, a, b = plan
    text = (
        f"import {{ expect, test }} from 'vitest';\n{_load_anchor(anchor, esm=True)}\n"
        f"test('{passing}', () => {{\n  expect({a} + {b}).toBe({a + b});\n}});\n\n"
        f"test('{failing}', () => {{\n  expect({a} * {b}, '{nonce}').toBe({a * b + 1});\n}});\n"
    )
    classnames = [test.split("::", 1)[0] for test in task.expected_tests or [] if "::" in test]
    prefix = _file_prefix(anchor, classnames)
    classname = relative.removeprefix(prefix)
    return Canaries(
        files={relative: text},
        must_fail=f"{classname}::{failing}",
        must_pass=f"{classname}::{passing}",
        args=(relative,),
    )


def jest_canaries(task: Task, workspace: Path, nonce: str) -> Canaries | None:
    """A Jest file beside one of the task's, with Jest's globals; ids are the test names."""
    plan = _js_plan(task, workspace, nonce)
    if plan is None:
        return None
    anchor, relative, passing, failing, a, b = plan
    text = (
        f"{_load_anchor(anchor, esm=False)}\n"
        f"test('{passing}', () => {{\n  expect({a} + {b}).toBe({a + b});\n}});\n\n"
        f"test('{failing}', () => {{\n"
        f"  if ({a} * {b} !== {a * b + 1}) throw new Error('{nonce}');\n}});\n"
    )
    return Canaries(files={relative: text}, must_fail=failing, must_pass=passing, args=(relative,))


def mocha_canaries(task: Task, workspace: Path, nonce: str) -> Canaries | None:
    """A mocha file beside one of the task's, with mocha's globals and ``node:assert``; the
    xunit reporter names a top-level test by its title."""
    plan = _js_plan(task, workspace, nonce)
    if plan is None:
        return None
    anchor, relative, passing, failing, a, b = plan
    esm = _is_esm(workspace, anchor)
    header = (
        "import assert from 'node:assert';\n" if esm else "const assert = require('node:assert');\n"
    ) + _load_anchor(anchor, esm)
    text = (
        f"{header}\nit('{passing}', () => {{\n  assert.strictEqual({a} + {b}, {a + b});\n}});\n\n"
        f"it('{failing}', () => {{\n  assert.strictEqual({a} * {b}, {a * b + 1}, '{nonce}');\n}});\n"
    )
    return Canaries(files={relative: text}, must_fail=failing, must_pass=passing, args=(relative,))


def tap_canaries(task: Task, workspace: Path, nonce: str) -> Canaries | None:
    """A tap file beside one of the task's; tap's JUnit names a subtest ``<file>::<title>``.

    Each subtest sits on one line: tap's report of a failed subtest quotes its source line,
    which is where the failing one's nonce is.
    """
    plan = _js_plan(task, workspace, nonce)
    if plan is None:
        return None
    anchor, relative, passing, failing, a, b = plan
    esm = _is_esm(workspace, anchor)
    header = ("import t from 'tap';\n" if esm else "const t = require('tap');\n") + _load_anchor(
        anchor, esm
    )
    text = (
        f"{header}\nt.test('{passing}', async (t) => {{ t.equal({a} + {b}, {a + b}); }});\n"
        f"t.test('{failing}', async (t) => {{ t.equal({a} * {b}, {a * b + 1}, '{nonce}'); }});\n"
    )
    return Canaries(
        files={relative: text},
        must_fail=f"{relative}::{failing}",
        must_pass=f"{relative}::{passing}",
        args=(relative,),
    )


GO_PACKAGE = re.compile(r"^package\s+(\w+)", re.MULTILINE)
GO_MODULE = re.compile(r"^module\s+(\S+)", re.MULTILINE)


def go_canaries(task: Task, workspace: Path, nonce: str) -> Canaries | None:
    """A ``<word>_<word>_test.go`` beside one of the task's, in the same package; ids are
    ``<import path>/<TestName>`` as ``go test -json`` names them."""
    anchor = _anchor(task, ("_test.go",), workspace)
    module_file = workspace / "go.mod"
    if anchor is None or not module_file.is_file():
        return None
    package = GO_PACKAGE.search((workspace / anchor).read_text(encoding="utf-8", errors="replace"))
    module = GO_MODULE.search(module_file.read_text(encoding="utf-8", errors="replace"))
    if package is None or module is None:
        return None
    rng = random.Random(nonce)
    folder = PurePosixPath(anchor).parent
    relative = _free(workspace, folder, [f"{'_'.join(_words(rng))}_test.go" for _ in range(5)])
    if relative is None:
        return None
    passing, failing = (f"Test{''.join(w.title() for w in _words(rng))}" for _ in range(2))
    a, b = _numbers(rng)
    text = (
        f'package {package.group(1)}\n\nimport "testing"\n\n'
        f'func {passing}(t *testing.T) {{\n\tif {a}+{b} != {a + b} {{\n\t\tt.Fatal("sum")\n\t}}\n}}\n\n'
        f"func {failing}(t *testing.T) {{\n\tif {a}*{b} != {a * b + 1} {{\n"
        f'\t\tt.Fatal("{nonce}")\n\t}}\n}}\n'
    )
    path = module.group(1) if str(folder) == "." else f"{module.group(1)}/{folder}"
    return Canaries(
        files={relative: text}, must_fail=f"{path}/{failing}", must_pass=f"{path}/{passing}"
    )


BUILDERS = {
    "go": go_canaries,
    "pytest": pytest_canaries,
    "unittest": unittest_canaries,
    "node": node_canaries,
    "vitest": vitest_canaries,
    "jest": jest_canaries,
    "mocha": mocha_canaries,
    "borp": node_canaries,
    "tap": tap_canaries,
}
