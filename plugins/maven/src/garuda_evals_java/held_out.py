"""Held-out JUnit tests and their canaries, renamed for one run of the judge.

Every ``@Test`` method of the task's held-out and canary sources becomes a class of its own,
in the folder and package of its source: the source's package and imports, its other
members (fields, helpers, lifecycle methods, nested classes), then that one test. Class and
method are named per run by the scheme of the runner's canaries (``<Word>Test`` and
``<verb><Word>``), the file after the class, so Surefire's default includes
(``**/*Test.java``) run it. Comments are left out. Held-out tests and canaries then differ
only in what they assert: not in file, class or method name, folder, or the members and
tests beside them.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from garuda_evals.api import FileFormatError, HeldOutRun
from garuda_evals_java.canary_text import class_name, method_name
from garuda_evals_java.checks import TEST_SOURCES
from garuda_evals_java.java_source import JavaSourceError
from garuda_evals_java.junit_class import JUnitSource, one_test_class, read_test_class
from garuda_evals_java.refusals import source_package


@dataclass(frozen=True)
class _Unit:
    """One ``@Test`` method of a source, and whether it must pass."""

    path: str
    source: JUnitSource
    package: str
    test: str
    must_pass: bool


def _units(path: str, text: str, must_pass: bool) -> list[_Unit]:
    where = f"{'heldout' if must_pass else 'canaries'}/{path}"
    if not (path.startswith(f"{TEST_SOURCES}/") and path.endswith(".java")):
        raise FileFormatError(
            f"{where}: held-out tests and canaries are .java files in {TEST_SOURCES}/"
        )
    try:
        source = read_test_class(text)
    except JavaSourceError as error:
        raise FileFormatError(f"{where}: {error}") from None
    if not source.tests:
        raise FileFormatError(f"{where}: no @Test method")
    package = source_package(text)
    return [_Unit(path, source, package, test, must_pass) for test in source.tests]


def _class_name(rng: random.Random, taken: set[str], folder: str) -> str:
    while True:
        name = class_name(rng, taken, folder)
        if f"{folder}/{name}.java" not in taken:
            taken.add(f"{folder}/{name}.java")
            return name


def _method_name(rng: random.Random, avoid: set[str]) -> str:
    while True:
        name = method_name(rng)
        if name not in avoid:
            return name


def held_out_run(
    tests: Mapping[str, str], canaries: Mapping[str, str], taken: Collection[str], seed: str
) -> HeldOutRun:
    """The held-out ``tests`` and ``canaries`` (path -> source) as one class per test, named
    from ``seed``; ``taken`` are paths already in the judge's folder. The tests are named in
    a shuffled order, so neither the order of the names nor the names follow the kind. Ids
    are Surefire's (``package.Class::method``); a source that cannot be cut into plain
    ``@Test`` methods is a ``FileFormatError`` naming it (``heldout/...``, ``canaries/...``)."""
    rng = random.Random(seed)
    used = set(taken)
    units = [unit for path, text in tests.items() for unit in _units(path, text, True)]
    units += [unit for path, text in canaries.items() for unit in _units(path, text, False)]
    rng.shuffle(units)
    files: dict[str, str] = {}
    must_pass: dict[str, str] = {}
    must_fail: dict[str, str] = {}
    for unit in units:
        folder = unit.path.rpartition("/")[0]
        name = _class_name(rng, used, folder)
        method = _method_name(rng, unit.source.identifiers())
        files[f"{folder}/{name}.java"] = one_test_class(unit.source, unit.test, name, method)
        qualified = f"{unit.package}.{name}" if unit.package else name
        ids = must_pass if unit.must_pass else must_fail
        ids[f"{qualified}::{method}"] = f"{unit.path}::{unit.test}"
    return HeldOutRun(files=files, must_pass=must_pass, must_fail=must_fail)
