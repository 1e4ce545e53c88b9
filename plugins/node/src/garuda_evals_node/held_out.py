"""Held-out ``node --test`` tests and their canaries, renamed for one run of the judge.

Every test of the task's held-out and canary files (``jsscan``: a ``test``/``it`` call,
alone or inside ``describe``/``suite`` groups) is written without comments, its groups and
itself under names drawn at random (not from the nonce). The tests of all the files are
shuffled, then written into as few files as can hold them, since node starts a process per
test file: tests whose sources have the same code around their tests (a canary file written
like its held-out file) share one copy of that code, as their sources do; such groups of
different code share a file too (``jsmerge``: the imports once at the top, each group's code
in a block of its own) when that code does nothing when it runs, and otherwise get a file
of their own. A file is written in the folder the sources' paths name, with their suffix
(``.test.js``, ``.test.mjs``, ``.test.cjs``: node loads it as an ES module or CommonJS as it
would load the sources there), named like the runner's canaries (two words and the suffix),
and the names at the top of one file all differ. Held-out tests and canaries then differ
only in what they assert, and neither their names nor their order follow the kind. An id
is what the runner's reporter reports, ``<file>::<group> > <test>``; a group is a case of
its own (``<file>::<group>``), judged with its one test.
"""

from __future__ import annotations

import posixpath
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from garuda_evals.api import FileFormatError, HeldOutRun
from garuda_evals_node.canaries import PHRASES, TEST_FILE, WORDS
from garuda_evals_node.jsmerge import MergedFile, Shareable, declarations, dynamic, quiet
from garuda_evals_node.jsscan import Call, ScanError, Scanned, scan, text_of

GROUP_WORDS = ("the", "a", "every", "each", "one", "some")


@dataclass
class Namer:
    """Names drawn from one random generator; never a path in ``taken`` or drawn before."""

    rng: random.Random
    taken: set[str]

    def file(self, folder: str, suffix: str) -> str:
        """A free ``<word>-<word><suffix>`` in ``folder`` (a number added when none is)."""
        for attempt in range(8 * len(WORDS)):
            first, second = self.rng.sample(WORDS, 2)
            stem = (
                f"{first}-{second}" if attempt < 4 * len(WORDS) else f"{first}-{second}-{attempt}"
            )
            path = posixpath.join(folder, f"{stem}{suffix}")
            if path not in self.taken:
                self.taken.add(path)
                return path
        raise ValueError(f"no free test file name left in {folder or '.'}")

    def test(self) -> str:
        """A test's name, like the canaries' phrases."""
        return self.rng.choice(PHRASES)

    def group(self) -> str:
        """A group's name."""
        return f"{self.rng.choice(GROUP_WORDS)} {self.rng.choice(WORDS)}"

    def titles(self, chain: Sequence[Call], used: Collection[str]) -> list[str]:
        """Names for ``chain``'s groups and test whose first is not in ``used`` (a file's
        top-level names, which must differ): once the phrases are used up, a phrase and a
        word (``... for totals``), once those are, a number too."""
        for attempt in range(16 * len(PHRASES) * len(WORDS)):
            titles = [self.group() for _ in chain[:-1]] + [self.test()]
            if attempt >= 4 * len(PHRASES):
                titles[-1] += f" for {self.rng.choice(WORDS)}"
            if attempt >= 8 * len(PHRASES) * len(WORDS):
                titles[0] += f" {attempt}"
            if titles[0] not in used:
                return titles
        raise ValueError("no free test name left")


@dataclass(frozen=True)
class _Test:
    """One test of a source file: where it comes from and the calls down to it."""

    kind: str  # "tests" or "canaries": the folder of the task it comes from
    path: str
    scanned: Scanned
    imports: Shareable | None  # None: an import form not joined, or an export
    quiet: bool  # its top level does nothing when it runs (jsmerge)
    around: str  # the source's code around its tests
    outside: frozenset[int]  # that code's tokens
    chain: tuple[Call, ...]


def _scanned(kind: str, path: str, text: str) -> tuple[Scanned, str]:
    """The scanned source and its test-file suffix; errors name the task's file."""
    where = f"{'heldout' if kind == 'tests' else 'canaries'}/{path}"
    suffix = TEST_FILE.search(path)
    if suffix is None:
        raise FileFormatError(f"{where}: a held-out test file is named *.test.js (.mjs, .cjs)")
    try:
        return scan(text), suffix.group(1)
    except ScanError as error:
        raise FileFormatError(f"{where}: {error}") from error


def _collect(tests: Mapping[str, str], canaries: Mapping[str, str]) -> list[tuple[_Test, str]]:
    """Every test of the sources, with its source's suffix; errors name the task's file."""
    found: list[tuple[_Test, str]] = []
    for kind, sources in (("tests", tests), ("canaries", canaries)):
        for path, text in sources.items():
            scanned, suffix = _scanned(kind, path, text)
            chains = scanned.chains()
            names = [" > ".join(call.title for call in chain) for chain in chains]
            twice = sorted({name for name in names if names.count(name) > 1})
            if twice:
                where = f"{'heldout' if kind == 'tests' else 'canaries'}/{path}"
                raise FileFormatError(f"{where}: two tests named {twice[0]!r}")
            imports = declarations(scanned)
            still = imports is not None and quiet(scanned, imports)
            inside = {i for call in scanned.calls for i in range(call.first, call.last + 1)}
            outside = frozenset(range(len(scanned.tokens))) - inside
            around = text_of(scanned, (), {})
            found += [
                (_Test(kind, path, scanned, imports, still, around, outside, chain), suffix)
                for chain in chains
            ]
    return found


def _units(found: Sequence[tuple[_Test, str]]) -> dict[tuple[str, str, str], _Unit]:
    """The tests grouped by folder, suffix and the code around them, in ``found``'s order."""
    units: dict[tuple[str, str, str], _Unit] = {}
    for test, suffix in found:
        key = (posixpath.dirname(test.path), suffix, test.around)
        units.setdefault(key, _Unit(test.scanned, test.imports, test.quiet, [])).tests.append(test)
    return units


def _record(
    named: Sequence[tuple[_Test, list[str]]],
    target: str,
    must_pass: dict[str, str],
    must_fail: dict[str, str],
) -> None:
    """Each test's ids in ``target`` -> the task's names for them, by kind."""
    for test, titles in named:
        # node reports each group too, passed or failed with its one test: judged with it.
        names = must_pass if test.kind == "tests" else must_fail
        for depth in range(1, len(titles) + 1):
            given = " > ".join(call.title for call in test.chain[:depth])
            names[f"{target}::{' > '.join(titles[:depth])}"] = f"{test.path}::{given}"


def held_out_run(
    tests: Mapping[str, str],
    canaries: Mapping[str, str],
    taken: Collection[str],
    rng: random.Random | None = None,
) -> HeldOutRun:
    """The held-out ``tests`` and ``canaries`` (path -> text) as few files for this run;
    ``taken`` are the paths already in the judge's folder. Names come from the system's
    randomness (``rng`` only in tests), never from the run's nonce: the runner's canary file
    shows the nonce to code under test, which could then redo the naming."""
    rng = rng or random.SystemRandom()
    namer = Namer(rng, set(taken))
    found = _collect(tests, canaries)
    rng.shuffle(found)
    alone: dict[str, str] = {}
    merged: dict[tuple[str, str], list[MergedFile]] = {}
    must_pass: dict[str, str] = {}
    must_fail: dict[str, str] = {}
    for (folder, suffix, around), unit in _units(found).items():
        if unit.imports is None or not unit.quiet:
            target = namer.file(folder, suffix)
            named = _named(namer, unit.tests, set())
            alone[target] = around + "".join(_calls(test, titles) for test, titles in named)
        else:
            into = _place(
                namer, merged.setdefault((folder, suffix), []), unit.imports, folder, suffix
            )
            named = _named(namer, unit.tests, into.titles)
            code = _code(text_of(unit.scanned, (), {}, omit=unit.imports.tokens))
            into.add(unit.imports, code + "".join(_calls(test, titles) for test, titles in named))
            target = into.path
        _record(named, target, must_pass, must_fail)
    files = {**alone, **{file.path: file.text() for group in merged.values() for file in group}}
    return HeldOutRun(files=files, must_pass=must_pass, must_fail=must_fail)


def folded_run(
    tests: Mapping[str, str],
    canaries: Mapping[str, str],
    canary: str,
    used: Collection[str],
    rng: random.Random | None = None,
) -> tuple[str, HeldOutRun] | None:
    """The held-out ``tests`` and ``canaries`` as code to add to the runner's canary file
    ``canary`` (an ES module), so that node runs them in the canary's process, not one more
    (``used``: the canary's own test names). Each group of tests with the same code around
    them goes in a block of its own, its imports made ``await import(...)``: a module that
    cannot be loaded fails its tests one by one, and never the canary. None when they cannot
    go there: a source in another folder or with another suffix (its relative imports would
    resolve elsewhere), an import form not joined, or a source whose top level does
    something when it runs (it would run after the canary has loaded the code under test)."""
    rng = rng or random.SystemRandom()
    found = _collect(tests, canaries)
    match = TEST_FILE.search(canary)
    where = (posixpath.dirname(canary), match.group(1) if match else "")
    if any(
        (posixpath.dirname(t.path), suffix) != where or t.imports is None for t, suffix in found
    ):
        return None
    rng.shuffle(found)
    units = _units(found)
    if not all(unit.quiet for unit in units.values()):
        return None  # the canary has loaded the code under test: a loader hook comes late
    namer, titles = Namer(rng, set()), set(used)
    must_pass: dict[str, str] = {}
    must_fail: dict[str, str] = {}
    blocks = []
    for unit in units.values():
        assert unit.imports is not None
        named = _named(namer, unit.tests, titles)
        code = _code(text_of(unit.scanned, (), {}, omit=unit.imports.tokens))
        calls = "".join(_calls(test, names) for test, names in named)
        blocks.append(f"{{\n{dynamic(unit.imports)}{code}{calls}}}\n")
        _record(named, canary, must_pass, must_fail)
    return "".join(blocks), HeldOutRun(files={}, must_pass=must_pass, must_fail=must_fail)


@dataclass
class _Unit:
    """The tests whose sources have the same code around their tests, written under one copy
    of it (as their sources run them), in the shuffled order."""

    scanned: Scanned  # the first source's: the code around its tests is every source's
    imports: Shareable | None
    quiet: bool
    tests: list[_Test]


def _named(namer: Namer, tests: Sequence[_Test], used: set[str]) -> list[tuple[_Test, list[str]]]:
    """Each test with its new names; the names at the top of its file (``used``) all differ."""
    named = []
    for test in tests:
        titles = namer.titles(test.chain, used)
        used.add(titles[0])
        named.append((test, titles))
    return named


def _calls(test: _Test, titles: Sequence[str]) -> str:
    """The test's calls alone (its groups and itself), renamed: the code around them left out."""
    renames = {call.name: _quoted(title) for call, title in zip(test.chain, titles, strict=True)}
    return text_of(test.scanned, test.chain, renames, omit=test.outside)


def _code(text: str) -> str:
    """``text``, or nothing when it holds no code."""
    return text if text.strip() else ""


def _place(
    namer: Namer, files: list[MergedFile], source: Shareable, folder: str, suffix: str
) -> MergedFile:
    """The first of ``files`` whose imports agree with ``source``'s, or a new one."""
    for file in files:
        if file.fits(source):
            return file
    file = MergedFile(namer.file(folder, suffix))
    files.append(file)
    return file


def _quoted(title: str) -> str:
    """``title`` as a JavaScript string literal (plain words: single quotes, as people write)."""
    return "'" + title.replace("\\", "\\\\").replace("'", "\\'") + "'"
