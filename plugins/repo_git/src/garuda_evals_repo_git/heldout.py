"""Held-out tests of a repo task (pytest): which test functions can be held out, and the
share a build holds out of the agent's copy.

A commit's test function can be held out when it is new (absent from the parent's version of
its file: a changed test's old version is in the task's folder), fails at the parent and
passes at the commit (``failToPass``), is one test (not parametrized) and asserts a plain
number, which its canaries change (``heldcanaries.py``). Which candidates are real (they
fail and pass as they should, their canaries fail at the parent and at the commit) is
proved by running them (``heldoutproof.py``).

A build draws the share (a third of the functions that fail at the parent, at least one, and
always one left in sight) from what was proved, with a random source of its own; the agent's
copy of the test files is the commit's without them.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass

from garuda_evals_repo_git.cache import HeldOutTest
from garuda_evals_repo_git.pyheldout import (
    FunctionNode,
    is_test_function,
    preamble,
    spans,
    test_methods,
    without,
)
from garuda_evals_repo_git.suitefile import RepoHeldOut

SHARE = 3
MIN_FAILING = 2
PARAMETERS = re.compile(r"\[.*$")


@dataclass(frozen=True)
class Target:
    """A test function of the commit that could be held out."""

    id: str
    path: str
    class_name: str | None
    function: str

    @property
    def name(self) -> str:
        """``Class::test`` or ``test``: how the task's held-out text names it."""
        return f"{self.class_name}::{self.function}" if self.class_name else self.function


def failing_functions(fail_to_pass: Iterable[str]) -> int:
    """How many test functions go from failing to passing (a parametrized one counts once)."""
    return len({PARAMETERS.sub("", test) for test in fail_to_pass})


def _reported(module: str, classname: str) -> bool:
    return module == classname or module.endswith(f".{classname}")


def _defined(text: str, path: str) -> dict[str, int] | None:
    """``name -> how often it is defined`` for the tests of a file (``Class::test`` for a
    method); None when the file does not parse."""
    try:
        tree = ast.parse(text, filename=path)
    except (SyntaxError, ValueError):
        return None
    counts: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            counts[node.name] = counts.get(node.name, 0) + 1
            for method in test_methods(node):
                key = f"{node.name}::{method.name}"
                counts[key] = counts.get(key, 0) + 1
        elif is_test_function(node):
            assert isinstance(node, FunctionNode)
            counts[node.name] = counts.get(node.name, 0) + 1
    return counts


def targets(
    test_files: dict[str, str],
    run_files: list[str],
    fail_to_pass: list[str],
    parent_text: dict[str, str | None],
) -> list[Target]:
    """The functions of ``fail_to_pass`` that are new in a run test file, defined once there,
    in a ``Test*`` class or at the top, and not parametrized."""
    modules = {p.removesuffix(".py").replace("/", "."): p for p in run_files if p in test_files}
    found: list[Target] = []
    for test in fail_to_pass:
        classname, sep, function = test.rpartition("::")
        if not sep or "[" in function or not function.startswith("test"):
            continue
        hits: list[tuple[str, str | None]] = []
        for module, path in modules.items():
            if _reported(module, classname):
                hits.append((path, None))
            head, _, last = classname.rpartition(".")
            if head and last.startswith("Test") and _reported(module, head):
                hits.append((path, last))
        if len(hits) != 1:
            continue
        path, class_name = hits[0]
        target = Target(test, path, class_name, function)
        now = _defined(test_files[path], path) or {}
        before = _defined(parent_text.get(path) or "", path) or {}
        once = now.get(target.name) == 1 and (class_name is None or now.get(class_name) == 1)
        if once and target.name not in before:
            found.append(target)
    return found


def _node(tree: ast.Module, target: Target) -> ast.stmt:
    for node in tree.body:
        plain = target.class_name is None and isinstance(node, FunctionNode)
        if plain and getattr(node, "name", "") == target.function:
            return node
        if isinstance(node, ast.ClassDef) and node.name == target.class_name:
            return node
    raise ValueError(f"{target.path}: {target.name} is not defined")


def unit_text(text: str, target: Target) -> str:
    """The target alone, as a unit: the function, or its class with no other test method."""
    lines = text.splitlines(keepends=True)
    tree = ast.parse(text)
    node = _node(tree, target)
    first, last = next((f, la) for n, f, la in spans(tree.body, lines, 0) if n is node)
    body = lines[first - 1 : last]
    if isinstance(node, ast.ClassDef):
        others = [
            (f - first + 1, la - first + 1)
            for method, f, la in spans(node.body, lines, node.lineno)
            if is_test_function(method) and getattr(method, "name", "") != target.function
        ]
        body = without(body, others)
    unit = "".join(body)
    return unit if unit.endswith("\n") else f"{unit}\n"


def visible_text(text: str, held: list[Target]) -> str:
    """The file without the held-out tests (a class left with no statement goes too)."""
    if not held:
        return text
    lines = text.splitlines(keepends=True)
    tree = ast.parse(text)
    drop: list[tuple[int, int]] = []
    names = {target.name for target in held}
    for node, first, last in spans(tree.body, lines, 0):
        if isinstance(node, FunctionNode) and node.name in names:
            drop.append((first, last))
        elif isinstance(node, ast.ClassDef):
            inner = [
                (f, la)
                for method, f, la in spans(node.body, lines, node.lineno)
                if f"{node.name}::{getattr(method, 'name', '')}" in names
            ]
            if len(inner) == len(node.body):
                drop.append((first, last))
            else:
                drop.extend(inner)
    return "".join(without(lines, drop))


def joined(head: str, parts: Iterable[str]) -> str:
    """A preamble and units, two blank lines apart."""
    return "\n\n".join([head.rstrip(), *(part.rstrip() for part in parts)]).lstrip() + "\n"


def share(
    found: list[HeldOutTest], fail_to_pass: list[str], rng: random.Random
) -> list[HeldOutTest]:
    """The tests a build holds out: a third of the functions that fail at the parent (at least
    one, never all), drawn among those that can be."""
    failing = failing_functions(fail_to_pass)
    if failing < MIN_FAILING or not found:
        return []
    count = min(max(1, failing // SHARE), len(found), failing - 1)
    return rng.sample(found, count)


def held_out_task(
    test_files: dict[str, str], chosen: list[HeldOutTest]
) -> tuple[dict[str, str], RepoHeldOut | None]:
    """The agent's copy of the test files and the task's held-out tests and canaries."""
    if not chosen:
        return dict(test_files), None
    visible = dict(test_files)
    tests: dict[str, str] = {}
    canaries: dict[str, str] = {}
    for path in sorted({test.path for test in chosen}):
        mine = [test for test in chosen if test.path == path]
        held = [_target(test) for test in mine]
        visible[path] = visible_text(test_files[path], held)
        head = preamble(test_files[path], path)
        tests[path] = joined(head, (test.test for test in mine))
        canaries[path] = joined(head, (text for test in mine for text in test.canaries))
    ids = sorted(test.id for test in chosen)
    return visible, RepoHeldOut(tests=tests, canaries=canaries, ids=ids)


def _target(test: HeldOutTest) -> Target:
    """The target a proved test stands for (its class and function read from its text)."""
    node = ast.parse(test.test).body[0]
    if isinstance(node, ast.ClassDef):
        method = test_methods(node)[0]
        return Target(test.id, test.path, node.name, method.name)
    assert isinstance(node, FunctionNode)
    return Target(test.id, test.path, None, node.name)
