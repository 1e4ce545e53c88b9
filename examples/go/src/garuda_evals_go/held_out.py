"""Held-out ``go test`` tests and their canaries, renamed for one run of the judge.

Go compiles every ``_test.go`` file of a folder into one package, so a split file cannot
repeat its source's helpers under their own names. Every ``Test`` function of the task's
held-out and canary files therefore becomes a file of its own, in the folder its path
names: the source's package clause and imports, every other declaration of the source
(helper functions, types, variables, constants) renamed for that file, then the one test.
Each file and test is named like the runner's canaries (``<word>_test.go``,
``Test<Word>``), each helper gets the test's word after its name (``cart`` becomes
``cartOrdering`` beside ``TestOrdering``), and no name is one the folder already has. An
import the one test and the helpers leave unused is kept as a blank import (``_``), so
the file still compiles; comments are dropped. Held-out tests and canaries then differ
only in what they assert: not in file, name, place, or the tests beside them.

Names come from the system's randomness, not from the run's nonce: the nonce is in the
runner's own canary file, which code under test can read, so names drawn from it could be
recomputed. The tests are shuffled before they are named and written, so neither the
names nor the order in which the files appear follow the kind. An id is what
``go test -json`` reports: ``<package import path>/<TestName>``.
"""

from __future__ import annotations

import posixpath
import random
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from garuda_evals.api import FileFormatError, HeldOutRun
from garuda_evals_go.goscan import Decl, GoFile, GoSyntaxError, Import, read_go, rewrite

# The runner's canary words (core's gotest) first, then more of the same kind.
WORDS = (
    "Boundaries", "Defaults", "EdgeCases", "EmptyInput", "Invariants", "Ordering",
    "Regression", "RoundTrip", "ZeroValue", "Bounds", "Cases", "Errors", "Format", "Inputs",
    "Limits", "Lookup", "Merge", "Negative", "Output", "Parsing", "Precision", "Rounding",
    "Rules", "Sizes", "Sorting", "State", "Totals", "Unicode", "Values", "Widths",
)  # fmt: skip
FILES = (
    "helpers", "regression", "edge", "invariants", "extra", "more", "basic", "bounds",
    "cases", "checks", "corner", "errors", "format", "inputs", "limits", "lookup", "order",
    "output", "parse", "rules", "sizes", "state", "totals", "unicode", "values", "widths",
)  # fmt: skip
TEST_FILE = "_test.go"
GO_WORD = re.compile(r"[^\W\d]\w*")
MODULE = re.compile(r"^module\s+(\S+)", re.MULTILINE)
NOT_IDENTIFIER = re.compile(r"\W")
VERSION = re.compile(r"v\d+")
OTHER_TESTS = ("Benchmark", "Example", "Fuzz")


def is_test_name(name: str, prefix: str = "Test") -> bool:
    """Go's rule: ``prefix`` alone, or followed by anything but a lower-case letter."""
    return name.startswith(prefix) and (len(name) == len(prefix) or not name[len(prefix)].islower())


def assumed_name(path: str) -> str:
    """The package name an import path suggests, as goimports assumes it: the last element
    (the one before a ``v2``-style version), without ``go-`` and from its first character
    that cannot be in a name (``gopkg.in/yaml.v3`` is ``yaml``)."""
    base = posixpath.basename(path)
    if VERSION.fullmatch(base) and posixpath.dirname(path):
        base = posixpath.basename(posixpath.dirname(path))
    base = base.removeprefix("go-")
    cut = NOT_IDENTIFIER.search(base)
    return base[: cut.start()] if cut else base


@dataclass(frozen=True)
class _Test:
    """One test of a task's held-out or canary file."""

    must_pass: bool
    path: str
    source: GoFile
    test: Decl


@dataclass
class _Folder:
    """What one folder (one package) already holds and what this run added to it."""

    files: set[str]
    names: set[str]
    package: str


@dataclass
class Namer:
    """File and test names like the canaries', never one a folder has or this run drew."""

    workspace: Path
    rng: random.Random
    folders: dict[str, _Folder] = field(default_factory=dict)

    def folder(self, folder: str) -> _Folder:
        """What ``folder`` holds: its entries, and every word of its Go files."""
        if folder not in self.folders:
            directory = self.workspace / folder
            entries = list(directory.iterdir()) if directory.is_dir() else []
            names: set[str] = set()
            for entry in entries:
                if entry.suffix == ".go" and entry.is_file() and not entry.is_symlink():
                    names.update(GO_WORD.findall(entry.read_text(errors="replace")))
            files = {posixpath.join(folder, entry.name) for entry in entries}
            self.folders[folder] = _Folder(files, names, package_path(self.workspace, folder))
        return self.folders[folder]

    def _draw(self, tiers: list[list[str]], more: Callable[[], str], taken: set[str]) -> str:
        """A free name from the first tier that has one, else from ``more`` (a folder that
        holds every name of the tiers: an agent's doing, where it may write)."""
        free: list[str] = []
        for tier in tiers:
            free = [name for name in tier if name not in taken]
            if free:
                break
        chosen = self.rng.choice(free) if free else more()
        while chosen in taken:
            chosen = more()
        taken.add(chosen)
        return chosen

    def _number(self) -> int:
        return self.rng.randrange(10**9)

    def file(self, folder: str) -> str:
        """A free ``<word>_test.go`` in ``folder`` (``<word>_<word>_test.go`` once none is)."""
        pairs = [f"{a}_{b}" for a in FILES for b in FILES if a != b]
        tiers = [
            [posixpath.join(folder, f"{stem}{TEST_FILE}") for stem in stems]
            for stems in (FILES, pairs)
        ]

        def more() -> str:
            return posixpath.join(folder, f"{self.rng.choice(FILES)}_{self._number()}{TEST_FILE}")

        return self._draw(tiers, more, self.folder(folder).files)

    def test(self, folder: str) -> str:
        """A free ``Test<Word>`` in ``folder``'s package (``Test<Word><Word>`` once none is)."""
        tiers = [
            [f"Test{word}" for word in WORDS],
            [f"Test{a}{b}" for a in WORDS for b in WORDS if a != b],
        ]

        def more() -> str:
            return f"Test{self.rng.choice(WORDS)}{self._number()}"

        return self._draw(tiers, more, self.folder(folder).names)

    def helper(self, folder: str, name: str, test: str) -> str:
        """``name`` followed by the test's words, free in ``folder``'s package."""
        taken = self.folder(folder).names
        base = f"{name}{test.removeprefix('Test')}"
        chosen = next(
            f"{base}{n or ''}" for n in range(len(taken) + 1) if f"{base}{n or ''}" not in taken
        )
        taken.add(chosen)
        return chosen


def package_path(workspace: Path, folder: str) -> str:
    """The import path of ``folder``: the module path of the nearest ``go.mod`` above it."""
    parts = folder.split("/") if folder else []
    for depth in range(len(parts), -1, -1):
        go_mod = workspace.joinpath(*parts[:depth], "go.mod")
        if go_mod.is_file() and not go_mod.is_symlink():
            found = MODULE.search(go_mod.read_text(errors="replace"))
            if found:
                return posixpath.join(found.group(1), *parts[depth:])
    raise ValueError(f"{folder or '.'} is in no Go module (no go.mod above it)")


def _where(must_pass: bool, path: str) -> str:
    """Where the task keeps the file: ``heldout/<path>`` or ``canaries/<path>``."""
    return f"{'heldout' if must_pass else 'canaries'}/{path}"


def _tests(must_pass: bool, path: str, text: str) -> list[_Test]:
    """The tests of one held-out or canary file; anything the split cannot keep is refused."""
    where = _where(must_pass, path)
    if not path.endswith(TEST_FILE):
        raise FileFormatError(f"{where}: a held-out Go test file is named *{TEST_FILE}")
    try:
        source = read_go(text)
    except GoSyntaxError as error:
        raise FileFormatError(f"{where}: {error}") from error
    if any(item.name == "." for item in source.imports):
        raise FileFormatError(f"{where}: a dot import cannot be told used or unused; name it")
    found = []
    for decl in source.decls:
        name = decl.function or ""
        if name in ("TestMain", "init") or any(is_test_name(name, p) for p in OTHER_TESTS):
            raise FileFormatError(
                f"{where}: {name} is not allowed: only Test functions and helpers"
            )
        if is_test_name(name):
            body = source.text[decl.start : decl.end]
            if decl.parameter and re.search(rf"\b{re.escape(decl.parameter)}\.Run\(", body):
                raise FileFormatError(
                    f"{where}: {name} runs subtests; a held-out test is one case, its id known"
                )
            found.append(_Test(must_pass, path, source, decl))
    if not found:
        raise FileFormatError(f"{where}: no Test function")
    return found


def _imports(imports: tuple[Import, ...], used: set[str]) -> str:
    """The import block, each import the file does not use made a blank import."""
    lines = []
    for item in imports:
        name = item.name or assumed_name(item.path)
        kept = item.name == "_" or name in used
        prefix = f"{item.name} " if kept and item.name else ("" if kept else "_ ")
        lines.append(f'{prefix}"{item.path}"')
    if not lines:
        return ""
    if len(lines) == 1:
        return f"import {lines[0]}\n\n"
    return "import (\n" + "".join(f"\t{line}\n" for line in lines) + ")\n\n"


def _file(test: _Test, name: str, helpers: dict[str, str]) -> str:
    """The text of the file that holds ``test`` alone, renamed."""
    source = test.source
    names = {**helpers, test.test.function or "": name}
    parts, used = [], set()
    for decl in source.decls:
        if decl.function and is_test_name(decl.function) and decl is not test.test:
            continue
        text, qualifiers = rewrite(source, decl.start, decl.end, names)
        parts.append(text)
        used |= qualifiers
    body = "\n\n".join(parts)
    body = re.sub(r"\n{3,}", "\n\n", body)
    return f"package {source.package}\n\n{_imports(source.imports, used)}{body}\n"


def held_out_run(
    tests: Mapping[str, str],
    canaries: Mapping[str, str],
    workspace: Path,
    rng: random.Random | None = None,
) -> HeldOutRun:
    """The held-out ``tests`` and ``canaries`` (path -> text) as one file per test, named
    against what ``workspace`` (the judge's folder, its canaries written) already holds."""
    found = [t for path, text in tests.items() for t in _tests(True, path, text)]
    found += [t for path, text in canaries.items() for t in _tests(False, path, text)]
    namer = Namer(workspace, rng or secrets.SystemRandom())
    namer.rng.shuffle(found)
    files: dict[str, str] = {}
    must_pass: dict[str, str] = {}
    must_fail: dict[str, str] = {}
    for test in found:
        folder = posixpath.dirname(test.path)
        try:
            target, name = namer.file(folder), namer.test(folder)
            helpers = {
                old: namer.helper(folder, old, name)
                for decl in test.source.decls
                if not (decl.function and is_test_name(decl.function))
                for old in decl.names
            }
        except ValueError as error:
            raise FileFormatError(f"{_where(test.must_pass, test.path)}: {error}") from error
        files[target] = _file(test, name, helpers)
        ids = must_pass if test.must_pass else must_fail
        ids[f"{namer.folder(folder).package}/{name}"] = f"{test.path}::{test.test.function}"
    return HeldOutRun(files=files, must_pass=must_pass, must_fail=must_fail)
