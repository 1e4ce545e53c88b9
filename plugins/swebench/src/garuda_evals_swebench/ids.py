"""The three id styles of SWE-bench's test lists, each mapped explicitly to a runner's report.

SWE-bench names a test by what its log parser read from the runner's output, so the ids are
fixed by the instance and differ by repository:

- ``pytest``: the node id, ``tests/test_a.py::TestB::test_c[x-1]``, cut at the first space
  (the parser splits the ``-rA`` line on whitespace). pytest's JUnit report names the same
  test ``classname="tests.test_a.TestB" name="test_c[x-1]"``: the node id's file path with
  ``/`` as ``.`` and no ``.py``, its classes, then the name. The id is mapped forward into
  that form (pytest's own rule), never guessed back from it.
- ``django``: ``test_c (app.tests.TestB)``, or ``test_c (app.tests.TestB.test_c)`` (newer
  Django), or the first line of the test's docstring (Django's verbose runner prints it in
  place of the name). The runner's report (``django_hook``) gives each test's unittest id,
  ``app.tests.TestB.test_c``, and its docstring's first line.
- ``sympy``: the bare function name, ``test_c``; any test of that name in the run's files.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol

DJANGO_ID = re.compile(r"^(?P<name>\S+) \((?P<dotted>[^()\s]+)\)$")
DOC_PREFIX = "doc:"


def cut(text: str) -> str:
    """``text`` up to its first whitespace, as SWE-bench's log parser reads an id."""
    return text.split(maxsplit=1)[0] if text.strip() else ""


class IdStyle(Protocol):
    """Maps an instance's test id and a reported test to one comparable key."""

    name: str

    def expected_key(self, test_id: str) -> str:
        """The key of an id from ``FAIL_TO_PASS`` or ``PASS_TO_PASS``."""
        ...

    def reported_keys(self, classname: str, name: str, doc: str) -> Iterable[str]:
        """The keys of one reported test (a JUnit ``testcase``)."""
        ...


class PytestIds:
    """Node ids, mapped forward to JUnit's ``classname::name``."""

    name = "pytest"

    def expected_key(self, test_id: str) -> str:
        """pytest's ``mangle_test_address``: ``a/b.py::C::t[p]`` -> ``a.b.C::t[p]``."""
        address = cut(test_id)
        path, bracket, params = address.partition("[")
        names = path.split("::")
        names[0] = re.sub(r"\.py$", "", names[0].replace("/", "."))
        names[-1] += bracket + params
        return f"{'.'.join(names[:-1])}::{names[-1]}"

    def reported_keys(self, classname: str, name: str, doc: str) -> Iterable[str]:
        """``classname::name``, cut at the first space as the instance's id was."""
        return [cut(f"{classname}::{name}")]


class DjangoIds:
    """Django's verbose-runner names, mapped to unittest ids (or docstring lines)."""

    name = "django"

    def expected_key(self, test_id: str) -> str:
        """``t (m.C)`` and ``t (m.C.t)`` -> ``m.C.t``; any other text is a docstring line."""
        found = DJANGO_ID.match(test_id.strip())
        if found is None:
            return DOC_PREFIX + test_id.strip()
        name, dotted = found["name"], found["dotted"]
        return dotted if dotted.endswith(f".{name}") else f"{dotted}.{name}"

    def reported_keys(self, classname: str, name: str, doc: str) -> Iterable[str]:
        """The unittest id, and the docstring's first line when the test has one."""
        keys = [f"{classname}.{name}" if classname else name]
        if doc.strip():
            keys.append(DOC_PREFIX + doc.strip())
        return keys


class SympyIds:
    """Bare function names: a reported test matches by its name without class or file."""

    name = "sympy"

    def expected_key(self, test_id: str) -> str:
        """The name itself (cut at a space)."""
        return cut(test_id)

    def reported_keys(self, classname: str, name: str, doc: str) -> Iterable[str]:
        """The test's function name (a parametrized test's parameters dropped)."""
        return [name.partition("[")[0]]


STYLES: dict[str, IdStyle] = {style.name: style for style in (PytestIds(), DjangoIds(), SympyIds())}
