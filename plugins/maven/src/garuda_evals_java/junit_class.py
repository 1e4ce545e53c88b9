"""A JUnit 5 test source cut into its parts: what comes before the class (package and
imports), the class's header, and its members, each ``@Test`` method apart from the rest
(fields, helpers, lifecycle methods, nested classes)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from garuda_evals_java.java_source import (
    JavaSourceError,
    Views,
    matching,
    renamed,
    spliced,
    views,
)

IDENTIFIER = r"[A-Za-z_$][\w$]*"
CLASS = re.compile(rf"(?<![\w$.])class\s+({IDENTIFIER})")
ANNOTATION = re.compile(rf"\s*@\s*({IDENTIFIER}(?:\s*\.\s*{IDENTIFIER})*)\s*")
METHOD_NAME = re.compile(rf"({IDENTIFIER})\s*\(")
TEST_INSIDE = re.compile(r"@\s*(?:[\w$]+\s*\.\s*)*Test(?![\w$])")
# One case per test: the judge must know every id before the check runs.
NOT_PLAIN = ("ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate", "Nested")


@dataclass(frozen=True)
class Member:
    """One member of the class: its text (``Views``), and the name of the ``@Test``
    method it is (None for everything else)."""

    views: Views
    test: str | None = None


@dataclass(frozen=True)
class JUnitSource:
    """A test source: ``preamble`` (package, imports), ``header`` (annotations, modifiers,
    ``class Name extends ...``, up to the body), the class ``name`` and its ``members``."""

    preamble: Views
    header: Views
    name: str
    members: tuple[Member, ...]

    @property
    def tests(self) -> list[str]:
        """The names of the ``@Test`` methods, in source order."""
        return [member.test for member in self.members if member.test is not None]

    def identifiers(self) -> set[str]:
        """Every identifier in the class's code (a new name must not be one of them)."""
        return {
            found
            for part in (self.header, *(member.views for member in self.members))
            for found in re.findall(IDENTIFIER, part.mask)
        }


def _depth_zero_class(mask: str) -> re.Match[str]:
    depth = 0
    last = 0
    for found in CLASS.finditer(mask):
        depth += sum(mask.count(c, last, found.start()) for c in "([{")
        depth -= sum(mask.count(c, last, found.start()) for c in ")]}")
        last = found.start()
        if depth == 0:
            return found
    raise JavaSourceError("no top-level class")


def _member_spans(mask: str, start: int, end: int) -> list[tuple[int, int]]:
    """Where each member of a class body (``mask[start:end]``) starts and ends: at a ``;``
    outside brackets, or at the ``}`` that closes a body opened outside brackets (unless an
    ``=`` came first: a field's initializer then runs on to its ``;``)."""
    spans: list[tuple[int, int]] = []
    first: int | None = None
    depth = 0
    assigned = False
    for index in range(start, end):
        char = mask[index]
        if first is None:
            if char.isspace():
                continue
            first, assigned = index, False
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0 and char == "}" and not assigned:
                spans.append((first, index + 1))
                first = None
        elif depth == 0 and char == ";":
            spans.append((first, index + 1))
            first = None
        elif depth == 0 and char == "=":
            assigned = True
    if first is not None:
        line = mask.count("\n", 0, first) + 1
        raise JavaSourceError(f"an unfinished member on line {line}")
    return [(a, b) for a, b in spans if mask[a:b].strip() != ";"]


def _annotations(mask: str) -> tuple[list[str], int]:
    """The simple names of the annotations ``mask`` starts with, and where they end."""
    names: list[str] = []
    index = 0
    while found := ANNOTATION.match(mask, index):
        if found.group(1) == "interface":
            break
        names.append(re.sub(r"\s+", "", found.group(1)).rpartition(".")[2])
        index = found.end()
        if mask.startswith("(", index):
            index = matching(mask, index) + 1
    return names, index


def _member(part: Views, line: int) -> Member:
    names, after = _annotations(part.mask)
    unsupported = sorted(set(names) & set(NOT_PLAIN))
    if unsupported:
        raise JavaSourceError(
            f"@{unsupported[0]} on line {line}: held-out tests are plain @Test methods"
        )
    if "Test" not in names:
        if TEST_INSIDE.search(part.mask):
            raise JavaSourceError(f"a @Test inside a nested member on line {line}")
        return Member(part)
    found = METHOD_NAME.search(part.mask, after)
    if found is None:
        raise JavaSourceError(f"a @Test that is not a method on line {line}")
    return Member(part, found.group(1))


def read_test_class(source: str) -> JUnitSource:
    """``source`` cut into its parts; ``JavaSourceError`` names what does not fit (more
    than one top-level type, a test that is not a plain ``@Test`` method)."""
    whole = views(source)
    mask = whole.mask
    declared = _depth_zero_class(mask)
    body = mask.find("{", declared.end())
    if body < 0:
        raise JavaSourceError(f"class {declared.group(1)} has no body")
    close = matching(mask, body)
    if mask[close + 1 :].strip():
        raise JavaSourceError("more than one top-level type: put helpers inside the class")
    header_start = mask.rfind(";", 0, declared.start()) + 1
    members = tuple(
        _member(whole.cut(start, end), mask.count("\n", 0, start) + 1)
        for start, end in _member_spans(mask, body + 1, close)
    )
    tests = [member.test for member in members if member.test is not None]
    twice = sorted({test for test in tests if tests.count(test) > 1})
    if twice:
        raise JavaSourceError(f"two @Test methods named {twice[0]}")
    return JUnitSource(
        preamble=whole.cut(0, header_start),
        header=whole.cut(header_start, body),
        name=declared.group(1),
        members=members,
    )


def one_test_class(source: JUnitSource, test: str, name: str, method: str) -> str:
    """The text of a class ``name`` that holds ``source``'s preamble and every member but
    its ``@Test`` methods, then the one ``test``, renamed ``method``; without comments."""
    header = renamed(source.header, source.name, name).tidy().strip()
    kept = [member.views for member in source.members if member.test is None]
    [chosen] = [member.views for member in source.members if member.test == test]
    declared = METHOD_NAME.search(chosen.mask, _annotations(chosen.mask)[1])
    assert declared is not None
    kept.append(spliced(chosen, *declared.span(1), method))
    members = "\n\n".join(
        f"    {renamed(member, source.name, name).tidy().strip()}" for member in kept
    )
    preamble = source.preamble.tidy().strip()
    return f"{preamble}\n\n{header} {{\n\n{members}\n}}\n".lstrip()
