"""Held-out pytest tests and their canaries, renamed for one run of the judge.

Every test (a module-level ``test*`` function, or a ``Test*`` class with its ``test*``
methods) of the task's held-out and canary files becomes a file of its own: the source
file's other statements (imports, helpers, constants), then that one test, under a file,
class and function name drawn at random (not from the nonce) by the scheme of the runner's own
canaries. Held-out tests and canaries then differ only in what they assert: not in file,
name, place or the number of tests beside them.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass

from garuda_evals.api import HeldOutRun
from garuda_evals_python.canary_text import WORDS, junit_id, test_file_name, test_name

CLASS_WORDS = tuple(word.capitalize() for word in WORDS)


@dataclass(frozen=True)
class _Unit:
    """One test of a source file: its lines, and the test names inside it."""

    first: int
    last: int
    class_name: str | None
    functions: tuple[str, ...]


def _is_test_function(node: ast.stmt) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")


def _units(tree: ast.Module) -> Iterator[_Unit]:
    """The tests of a module, in source order (``first``/``last`` are 1-based lines)."""
    for node in tree.body:
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
        end = node.end_lineno or node.lineno
        if _is_test_function(node):
            assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            yield _Unit(first, end, None, (node.name,))
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            methods = tuple(item.name for item in node.body if _is_test_function(item))
            yield _Unit(first, end, node.name, methods)


def _renamed(lines: list[str], old: str, new: str, keyword: str) -> list[str]:
    """``lines`` with the first ``def old`` / ``class old`` renamed to ``new``."""
    pattern = re.compile(rf"^(\s*(?:async\s+)?{keyword}\s+){re.escape(old)}\b")
    out, done = [], False
    for line in lines:
        if not done and pattern.match(line):
            line, done = pattern.sub(rf"\g<1>{new}", line, count=1), True
        out.append(line)
    return out


@dataclass
class _Namer:
    """Names drawn from the nonce, never one taken in this judge's folder or this run."""

    rng: random.Random
    taken: set[str]

    def file(self, folder: str) -> str:
        name = test_file_name(self.rng, self.taken, folder)
        path = f"{folder}/{name}" if folder else name
        self.taken.add(path)
        return path

    def function(self, used: set[str]) -> str:
        while True:
            name = test_name(self.rng)
            if name not in used:
                used.add(name)
                return name

    def test_class(self) -> str:
        return f"Test{self.rng.choice(CLASS_WORDS)}{self.rng.choice(CLASS_WORDS)}"


@dataclass
class _Written:
    files: dict[str, str]
    ids: dict[str, str]


def _split(path: str, text: str, namer: _Namer) -> _Written:
    """One renamed file per test of ``path``; ids map to ``path::Class::test`` names."""
    lines = text.splitlines(keepends=True)
    units = list(_units(ast.parse(text, filename=path)))
    in_units = {line for unit in units for line in range(unit.first, unit.last + 1)}
    preamble = [line for number, line in enumerate(lines, 1) if number not in in_units]
    folder = path.rpartition("/")[0]
    written = _Written({}, {})
    for unit in units:
        body = lines[unit.first - 1 : unit.last]
        target = namer.file(folder)
        module = junit_id(target, "").removesuffix("::")
        used: set[str] = set()
        class_name = None
        if unit.class_name is not None:
            class_name = namer.test_class()
            body = _renamed(body, unit.class_name, class_name, "class")
        for function in unit.functions:
            new = namer.function(used)
            body = _renamed(body, function, new, "def")
            owner = f"{module}.{class_name}" if class_name else module
            given = f"{unit.class_name}::{function}" if unit.class_name else function
            written.ids[f"{owner}::{new}"] = f"{path}::{given}"
        written.files[target] = "".join([*preamble, "\n\n", *body])
    return written


def held_out_run(
    tests: dict[str, str],
    canaries: dict[str, str],
    taken: Collection[str],
    rng: random.Random | None = None,
) -> HeldOutRun:
    """The held-out ``tests`` and ``canaries`` (path -> text) as files for this run;
    ``taken`` are paths already in the judge's folder. Sources are handled in a shuffled
    order, so neither the order of the files nor their names follow the kind. Names come
    from the system's randomness (``rng`` only in tests), never from the run's nonce: the
    runner's canary file shows the nonce to code under test, which could then redo them."""
    rng = rng or random.SystemRandom()
    namer = _Namer(rng, set(taken))
    sources = [(path, text, True) for path, text in tests.items()]
    sources += [(path, text, False) for path, text in canaries.items()]
    rng.shuffle(sources)
    files: dict[str, str] = {}
    must_pass: dict[str, str] = {}
    must_fail: dict[str, str] = {}
    for path, text, must in sources:
        written = _split(path, text, namer)
        files |= written.files
        (must_pass if must else must_fail).update(written.ids)
    return HeldOutRun(files=files, must_pass=must_pass, must_fail=must_fail)
