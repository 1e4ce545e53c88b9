"""Canaries of a held-out repo test (pytest): the same test with one asserted number changed.

The number is a plain one (``150``, ``2.50``) of an assertion, the expected value first,
written nowhere else in the file the judge writes. Its two other values are drawn so that
the true one is the smallest, the middle or the largest of the three with equal odds, each
gap 2 to 9 units of its last digit: the three texts differ only there, and nothing in them
gives a rank, a distance or an echo to go by.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from garuda_evals_repo_git.heldout import Target
from garuda_evals_repo_git.pyheldout import renamed, test_methods

LITERALS = 2
GAPS = range(2, 10)
NUMBER = re.compile(r"^(\d+)(?:\.(\d+))?$")


@dataclass(frozen=True)
class _Literal:
    """A plain number in an assertion: its line and byte columns in the unit's text."""

    line: int
    start: int
    end: int
    text: str


def _is_assertion(node: ast.AST) -> bool:
    if isinstance(node, ast.Assert):
        return True
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name.startswith("assert")
    return False


def _operand(node: ast.AST) -> ast.Constant | None:
    """The number a comparison side is: ``5``, ``-5``, ``approx(5)``."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    if isinstance(node, ast.Call) and node.args:
        name = getattr(node.func, "attr", getattr(node.func, "id", ""))
        node = node.args[0] if name == "approx" else node
    return node if isinstance(node, ast.Constant) else None


def _numbers(node: ast.AST) -> list[ast.Constant]:
    """The numbers of one assertion, the expected-looking ones first (a side of a comparison,
    the right one before the left), then the others from the last."""
    found = [
        n
        for n in ast.walk(node)
        if isinstance(n, ast.Constant)
        and isinstance(n.value, int | float)
        and not isinstance(n.value, bool)
    ]
    found.sort(key=lambda n: (n.lineno, n.col_offset), reverse=True)
    first: list[ast.Constant] = []
    if isinstance(node, ast.Assert) and isinstance(node.test, ast.Compare):
        for side in [*reversed(node.test.comparators), node.test.left]:
            constant = _operand(side)
            if constant is not None:
                first.append(constant)
    return [*first, *(n for n in found if n not in first)]


def _once(text: str, unit: str, target: Target, context: str) -> bool:
    """Whether the number ``text`` is written once in the held-out file (``context``, the
    preamble, then ``unit``; the test's name aside, which the judge replaces). A second
    writing (a docstring, a message, a constant) would stay the same in the canaries and
    tell the true value from theirs."""
    unnamed = "".join(renamed(unit.splitlines(keepends=True), target.function, "x", "def"))
    seen = f"{context}\n{unnamed}"
    return len(re.findall(rf"(?<![\w.]){re.escape(text)}(?!\d|\.\d)", seen)) == 1


def literals(unit: str, target: Target, context: str = "") -> list[_Literal]:
    """The plain numbers (``150``, ``2.5``) asserted in the target's test and written
    nowhere else in its file (``context``: the preamble), the likeliest expected values
    first."""
    lines = unit.splitlines(keepends=True)
    tree = ast.parse(unit)
    test = tree.body[0]
    if isinstance(test, ast.ClassDef):
        test = next(m for m in test_methods(test) if m.name == target.function)
    found: list[_Literal] = []
    seen: set[tuple[int, int]] = set()
    for node in ast.walk(test):
        if not _is_assertion(node):
            continue
        for constant in _numbers(node):
            if constant.lineno != constant.end_lineno or constant.end_col_offset is None:
                continue
            raw = lines[constant.lineno - 1].encode()[constant.col_offset : constant.end_col_offset]
            text = raw.decode(errors="replace")
            before = lines[constant.lineno - 1].encode()[: constant.col_offset].rstrip()
            key = (constant.lineno, constant.col_offset)
            # After a sign, a value drawn below zero would read "--3": a give-away.
            fits = NUMBER.match(text) and _once(text, unit, target, context)
            if fits and not before.endswith((b"-", b"+")) and key not in seen:
                seen.add(key)
                found.append(
                    _Literal(constant.lineno, constant.col_offset, constant.end_col_offset, text)
                )
    return found


def canary_values(text: str, rng: random.Random) -> tuple[str, str]:
    """Two other numbers written like ``text``: the true one is the smallest, the middle or
    the largest of the three with equal odds, each gap 2 to 9 of its last digit."""
    match = NUMBER.match(text)
    assert match is not None
    decimals = len(match.group(2) or "")
    value = int(text.replace(".", ""))
    low, high = rng.choice(GAPS), rng.choice(GAPS)
    rank = rng.randrange(3)
    if rank == 0:
        others = (value + low, value + low + high)
    elif rank == 1:
        others = (value - low, value + high)
    else:
        others = (value - low - high, value - low)
    return _written(others[0], decimals), _written(others[1], decimals)


def _written(scaled: int, decimals: int) -> str:
    number = Decimal(scaled).scaleb(-decimals)
    return f"{number:.{decimals}f}"


def canary_text(unit: str, literal: _Literal, value: str, target: Target, name: str) -> str:
    """``unit`` with ``literal`` written as ``value`` and its test named ``name``."""
    lines = unit.splitlines(keepends=True)
    raw = lines[literal.line - 1].encode()
    lines[literal.line - 1] = (raw[: literal.start] + value.encode() + raw[literal.end :]).decode()
    return "".join(renamed(lines, target.function, name, "def"))


def canary_sets(
    unit: str, target: Target, rng: random.Random, context: str = ""
) -> Iterator[list[str]]:
    """Up to ``LITERALS`` pairs of canaries, each pair changing one number of the test
    (``context``: the preamble the judge writes before it)."""
    for index, literal in enumerate(literals(unit, target, context)[:LITERALS]):
        texts = [
            canary_text(unit, literal, value, target, f"{target.function}__canary_{index}_{n}")
            for n, value in enumerate(canary_values(literal.text, rng), 1)
        ]
        try:
            for text in texts:
                ast.parse(text)
        except SyntaxError:
            continue
        yield texts


def final_canaries(texts: list[str], target: Target) -> list[str]:
    """The canaries of the pair that was proved, named ``<test>__canary_1`` and ``_2``."""
    named = []
    for number, text in enumerate(texts, 1):
        lines = text.splitlines(keepends=True)
        old = re.search(rf"def ({re.escape(target.function)}__canary_\d+_\d+)\b", text)
        assert old is not None
        new = f"{target.function}__canary_{number}"
        named.append("".join(renamed(lines, old.group(1), new, "def")))
    return named
