"""Held-out pytest tests of a repo task, and their canaries, written for one run of the judge.

A test file is made of *units*, each a module-level ``test*`` function or a ``Test*`` class
that holds ``test*`` methods (with its decorators and the comments right above it), and of
its *preamble*: everything else (imports, helpers, fixtures, constants). A task's held-out
text for a file is that file's preamble and its held-out units, one test each; its canary
text, the preamble and the same units with an expected value changed (``heldout.py``).

The judge writes every unit to a file of its own, the preamble first, beside the file it
came from, and draws every file, class and test name at random (never from the run's nonce,
which the canary file shows), by the scheme of
the repo suite's pytest canaries, in a shuffled order. A held-out test and its canaries then
differ only in the value they assert: not in file, name, place, order or neighbours.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from garuda_evals.api import HeldOutRun, Task
from garuda_evals_repo_git.canaries import WORDS, rootdir_prefix

FUNCTION_PREFIX = "test"
CLASS_PREFIX = "Test"
FILE_TRIES = 20

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


def is_test_function(node: ast.AST) -> bool:
    """A ``test*`` function (pytest's default ``python_functions``)."""
    return isinstance(node, FunctionNode) and node.name.startswith(FUNCTION_PREFIX)


def test_methods(node: ast.ClassDef) -> list[FunctionNode]:
    """The ``test*`` methods of a class, in order."""
    return [item for item in node.body if isinstance(item, FunctionNode) and is_test_function(item)]


def is_unit(node: ast.AST) -> bool:
    """A test function, or a ``Test*`` class holding one (pytest's default ``python_classes``)."""
    if isinstance(node, ast.ClassDef):
        return node.name.startswith(CLASS_PREFIX) and bool(test_methods(node))
    return is_test_function(node)


def span(node: ast.stmt, lines: list[str], floor: int = 0) -> tuple[int, int]:
    """The 1-based first and last line of ``node``: its decorators and the comment lines right
    above it included, none at or before line ``floor`` (where the statement before ends)."""
    decorators = getattr(node, "decorator_list", [])
    first = min([node.lineno, *(d.lineno for d in decorators)])
    while first - 1 > floor and lines[first - 2].lstrip().startswith("#"):
        first -= 1
    return first, node.end_lineno or node.lineno


def spans(
    body: list[ast.stmt], lines: list[str], floor: int
) -> Iterator[tuple[ast.stmt, int, int]]:
    """Each statement of ``body`` with its span (``floor``: the line before the first)."""
    for node in body:
        first, last = span(node, lines, floor)
        yield node, first, last
        floor = last


def without(lines: list[str], spans: Iterable[tuple[int, int]]) -> list[str]:
    """``lines`` (1-based spans) without each span and the blank lines right before it."""
    drop: set[int] = set()
    for first, last in spans:
        start = first
        while start > 1 and not lines[start - 2].strip():
            start -= 1
        drop.update(range(start, last + 1))
    return [line for number, line in enumerate(lines, 1) if number not in drop]


@dataclass(frozen=True)
class Unit:
    """One unit of a test file: its lines, its class (if any) and the tests in it."""

    first: int
    last: int
    class_name: str | None
    functions: tuple[str, ...]


def units(text: str, path: str = "<test>") -> tuple[list[str], list[Unit]]:
    """The lines of ``text`` (ends kept) and its units, in order."""
    lines = text.splitlines(keepends=True)
    found: list[Unit] = []
    for node, first, last in spans(ast.parse(text, filename=path).body, lines, 0):
        if not is_unit(node):
            continue
        if isinstance(node, ast.ClassDef):
            methods = tuple(method.name for method in test_methods(node))
            found.append(Unit(first, last, node.name, methods))
        else:
            assert isinstance(node, FunctionNode)
            found.append(Unit(first, last, None, (node.name,)))
    return lines, found


def preamble(text: str, path: str = "<test>") -> str:
    """``text`` without its units: what every held-out file of it starts with."""
    lines, found = units(text, path)
    kept = "".join(without(lines, ((unit.first, unit.last) for unit in found))).rstrip()
    return f"{kept}\n" if kept else ""


def renamed(lines: list[str], old: str, new: str, keyword: str) -> list[str]:
    """``lines`` with the first ``def old`` (or ``class old``) renamed to ``new``."""
    pattern = re.compile(rf"^(\s*(?:async\s+)?{keyword}\s+){re.escape(old)}\b")
    out, done = [], False
    for line in lines:
        if not done and pattern.match(line):
            line, done = pattern.sub(rf"\g<1>{new}", line, count=1), True
        out.append(line)
    return out


def module_id(path: str, prefix: str) -> str:
    """pytest's JUnit ``classname`` of the module at ``path``; ``prefix`` is what the report
    leaves off dotted paths (its rootdir's own, see ``canaries.rootdir_prefix``)."""
    return path.removesuffix(".py").replace("/", ".").removeprefix(prefix)


@dataclass
class _Namer:
    """File, class and test names drawn at random; no file name twice or taken."""

    rng: random.Random
    workspace: Path
    taken: set[str]

    def words(self) -> list[str]:
        return self.rng.sample(WORDS, 2)

    def file(self, source: str) -> str:
        pure = PurePosixPath(source)
        trailing = pure.stem.endswith("_test") and not pure.stem.startswith("test_")
        for attempt in range(FILE_TRIES):
            words = "_".join(self.words())
            if attempt >= FILE_TRIES // 2:
                words = f"{words}_{self.rng.randrange(10**6)}"
            name = f"{words}_test.py" if trailing else f"test_{words}.py"
            relative = str(pure.parent / name) if str(pure.parent) != "." else name
            if name not in self.taken and not (self.workspace / relative).exists():
                self.taken.add(name)
                return relative
        raise ValueError(f"no free name for a held-out test beside {source}")

    def function(self, used: set[str]) -> str:
        while True:
            name = f"{FUNCTION_PREFIX}_{'_'.join(self.words())}"
            if name not in used:
                used.add(name)
                return name

    def test_class(self) -> str:
        return CLASS_PREFIX + "".join(word.capitalize() for word in self.words())


@dataclass(frozen=True)
class _Item:
    path: str
    head: list[str]
    body: list[str]
    unit: Unit
    must_pass: bool


def _items(texts: Mapping[str, str], must_pass: bool) -> Iterator[_Item]:
    for path, text in texts.items():
        lines, found = units(text, path)
        head = without(lines, ((unit.first, unit.last) for unit in found))
        while head and not head[-1].strip():
            head.pop()
        if head and not head[-1].endswith("\n"):
            head[-1] += "\n"
        for unit in found:
            yield _Item(path, head, lines[unit.first - 1 : unit.last], unit, must_pass)


def held_out_files(
    tests: Mapping[str, str],
    canaries: Mapping[str, str],
    workspace: Path,
    *,
    id_prefix: str,
    taken: Collection[str],
    rng: random.Random | None = None,
) -> HeldOutRun:
    """Every unit of ``tests`` and ``canaries`` (path -> text) as a file of its own for this
    run, in a shuffled order. ``taken`` are file names pytest already gets (a second module
    of the same name in another folder would not import); ``id_prefix`` what the report
    leaves off module paths. Ids map to ``<path>::<test>`` names (``<path>::<Class>::<test>``).
    Names come from the system's randomness (``rng`` only in tests), never from the run's
    nonce: the runner's canary file shows the nonce to code under test, which could redo a
    draw seeded with it."""
    rng = rng or random.SystemRandom()
    items = [*_items(tests, True), *_items(canaries, False)]
    rng.shuffle(items)
    namer = _Namer(rng, workspace, set(taken))
    files: dict[str, str] = {}
    must_pass: dict[str, str] = {}
    must_fail: dict[str, str] = {}
    args: list[str] = []
    for item in items:
        target = namer.file(item.path)
        owner = module_id(target, id_prefix)
        body = item.body
        class_name = item.unit.class_name
        if class_name is not None:
            new_class = namer.test_class()
            body = renamed(body, class_name, new_class, "class")
            owner = f"{owner}.{new_class}"
        used: set[str] = set()
        for function in item.unit.functions:
            new = namer.function(used)
            body = renamed(body, function, new, "def")
            given = f"{class_name}::{function}" if class_name else function
            (must_pass if item.must_pass else must_fail)[f"{owner}::{new}"] = (
                f"{item.path}::{given}"
            )
        files[target] = "".join([*item.head, "\n\n" if item.head else "", *body])
        args.append(target)
    return HeldOutRun(files=files, must_pass=must_pass, must_fail=must_fail, args=tuple(args))


def taken_names(workspace: Path, paths: Iterable[str]) -> set[str]:
    """The names of the Python files in the folders of ``paths`` (pytest imports a test module
    by its name when its folder is not a package: a second one of that name would not load)."""
    folders = {PurePosixPath(path).parent for path in paths}
    return {
        entry.name
        for folder in folders
        if (workspace / folder).is_dir()
        for entry in (workspace / folder).iterdir()
        if entry.suffix == ".py"
    }


def pytest_held_out(task: Task, workspace: Path, nonce: str) -> HeldOutRun | None:
    """A repo pytest task's held-out tests and canaries as files for this run (None: none)."""
    if task.held_out is None:
        return None
    sources = {**task.held_out.tests, **task.held_out.canaries}
    modules = sorted(p for p in task.files if p.endswith(".py"))
    classnames = [test.split("::", 1)[0] for test in task.expected_tests or [] if "::" in test]
    anchor = (modules or sorted(sources))[0].removesuffix(".py").replace("/", ".")
    return held_out_files(
        task.held_out.tests,
        task.held_out.canaries,
        workspace,
        id_prefix=rootdir_prefix(anchor, classnames),
        taken=taken_names(workspace, [*task.files, *sources]),
    )
