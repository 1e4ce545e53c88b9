"""Wrong variants of a reference change: the change minus one hunk, and small mutations.

A task's tests should reject a fix that is almost right. Each mutant is the commit's source
files with one thing undone or changed on a line the commit added: a hunk reverted to the
parent's lines, a comparison flipped, an integer literal moved by one, ``true``/``false``
swapped, or a statement deleted. Python mutants that do not compile are dropped (a syntax
error proves nothing about the tests).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath

MAX_MUTANTS = 12
PY_SUFFIXES = frozenset({".py"})
CODE_SUFFIXES = frozenset(
    {".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx", ".go", ".java"}
)
COMPARISONS = (
    ("===", "!=="),
    ("!==", "==="),
    ("==", "!="),
    ("!=", "=="),
    ("<=", ">"),
    (">=", "<"),
    ("<", ">="),
    (">", "<="),
)
COMPARISON = re.compile(r"(===|!==|==|!=|<=|>=|(?<![<>=-])<(?![<=])|(?<![<>=-])>(?![>=]))")
INTEGER = re.compile(r"(?<![\w.])(\d+)(?![\w.])")
BOOLEANS = {"True": "False", "False": "True", "true": "false", "false": "true"}
BOOLEAN = re.compile(r"\b(True|False|true|false)\b")
NOT_STATEMENT = re.compile(
    r"^\s*(#|//|/\*|\*|def |class |function |async |export |import |from |@|else|elif |"
    r"try|except|finally|catch|case |default:|return$|[}\])]|$)"
)


@dataclass(frozen=True)
class Mutant:
    """The commit's sources with one change: ``files`` maps each changed path to its text."""

    label: str
    files: dict[str, str]


def _added_lines(before: list[str], after: list[str]) -> list[int]:
    """Indexes in ``after`` of the lines the change added or replaced."""
    added: list[int] = []
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            added.extend(range(j1, j2))
    return added


def hunk_reverts(path: str, before: str, after: str) -> Iterator[tuple[str, str]]:
    """For each hunk of the change to ``path``: ``(label, after with that hunk undone)``."""
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for number, (tag, i1, i2, j1, j2) in enumerate(matcher.get_opcodes()):
        if tag == "equal":
            continue
        text = "".join([*new[:j1], *old[i1:i2], *new[j2:]])
        yield f"{path}: hunk at line {j1 + 1} undone ({number})", text


def _flip(line: str) -> str | None:
    found = COMPARISON.search(line)
    if not found:
        return None
    swapped = dict(COMPARISONS)[found.group(1)]
    return line[: found.start()] + swapped + line[found.end() :]


def _plus_one(line: str) -> str | None:
    code = line.split("#", 1)[0].split("//", 1)[0]
    found = INTEGER.search(code)
    if not found:
        return None
    return line[: found.start()] + str(int(found.group(1)) + 1) + line[found.end() :]


def _swap_boolean(line: str) -> str | None:
    found = BOOLEAN.search(line)
    if not found:
        return None
    return line[: found.start()] + BOOLEANS[found.group(1)] + line[found.end() :]


def _delete(line: str, python: bool) -> str | None:
    stripped = line.strip()
    if NOT_STATEMENT.match(line) or stripped.endswith((":", "(", "[", "{", ",", "\\")):
        return None
    if python:
        indent = line[: len(line) - len(line.lstrip())]
        return f"{indent}pass\n"
    if stripped.endswith(";") or stripped.startswith("return "):
        return "\n"
    return None


def line_mutations(line: str, python: bool) -> Iterator[tuple[str, str]]:
    """``(operator, mutated line)`` for each operator that applies to ``line``."""
    operators: list[tuple[str, Callable[[str], str | None]]] = [
        ("comparison flipped", _flip),
        ("integer + 1", _plus_one),
        ("true/false swapped", _swap_boolean),
        ("statement deleted", lambda text: _delete(text, python)),
    ]
    for name, operator in operators:
        mutated = operator(line)
        if mutated is not None and mutated != line:
            yield name, mutated


def _compiles(path: str, text: str) -> bool:
    if PurePosixPath(path).suffix not in PY_SUFFIXES:
        return True
    try:
        compile(text, path, "exec")
    except (SyntaxError, ValueError):
        return False
    return True


def _spread(items: list[Mutant], limit: int) -> list[Mutant]:
    """At most ``limit`` items, taken evenly across the list (deterministic)."""
    if len(items) <= limit:
        return items
    step = len(items) / limit
    return [items[int(index * step)] for index in range(limit)]


def mutants(changes: dict[str, tuple[str, str]], limit: int = MAX_MUTANTS) -> list[Mutant]:
    """Mutants of a change: ``changes`` maps each source path to ``(before, after)`` text.

    Hunk reverts come first (only when the change has more than one hunk: undoing the only
    one is the unsolved task, already proved to fail), then line mutations, spread over the
    change, up to ``limit`` in all.
    """
    code = {
        path: texts
        for path, texts in sorted(changes.items())
        if PurePosixPath(path).suffix in CODE_SUFFIXES
    }
    reverts = [
        Mutant(label, {path: text})
        for path, (before, after) in code.items()
        for label, text in hunk_reverts(path, before, after)
        if _compiles(path, text)
    ]
    if len(reverts) + len(changes) - len(code) <= 1:
        reverts = []
    lines: list[Mutant] = []
    for path, (before, after) in code.items():
        python = PurePosixPath(path).suffix in PY_SUFFIXES
        new = after.splitlines(keepends=True)
        for index in _added_lines(before.splitlines(keepends=True), new):
            for operator, mutated in line_mutations(new[index], python):
                text = "".join([*new[:index], mutated, *new[index + 1 :]])
                if _compiles(path, text):
                    lines.append(Mutant(f"{path}:{index + 1}: {operator}", {path: text}))
    half = max(limit - min(len(reverts), limit // 2), 0)
    chosen_lines = _spread(lines, half)
    return [*_spread(reverts, limit - len(chosen_lines)), *chosen_lines]
