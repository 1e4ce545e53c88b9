"""Held-out ``node --test`` tests and their canaries, renamed for one run of the judge.

Every test of the task's held-out and canary files (``jsscan``: a ``test``/``it`` call,
alone or inside ``describe``/``suite`` groups) is written without comments and without the
other tests of its source, that one test and its groups under names drawn at random (not
from the nonce). The tests of all the files are shuffled, then written into as few files as
can hold them (``jsmerge``: node starts a process per file): one per folder the sources'
paths name and suffix (``.test.js``, ``.test.mjs``, ``.test.cjs``: node loads it as an ES
module or CommonJS as it would load the source there), each test in a block of its own,
named like the runner's canaries (two words and the suffix). A source that cannot share a
file gives each of its tests a file of its own. Held-out tests and canaries then differ
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
from garuda_evals_node.jsmerge import MergedFile, Shareable, shareable
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

    def titles(self, chain: Sequence[Call], used: Collection[str]) -> list[str] | None:
        """Names for ``chain``'s groups and test whose first is not in ``used`` (a file's
        top-level names, which must differ), or None when none is left after many draws."""
        for _ in range(4 * len(PHRASES)):
            titles = [self.group() for _ in chain[:-1]] + [self.test()]
            if titles[0] not in used:
                return titles
        return None


@dataclass(frozen=True)
class _Test:
    """One test of a source file: where it comes from and the calls down to it."""

    kind: str  # "tests" or "canaries": the folder of the task it comes from
    path: str
    scanned: Scanned
    shared: Shareable | None
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
            shared = shareable(scanned)
            found += [(_Test(kind, path, scanned, shared, chain), suffix) for chain in chains]
    rng.shuffle(found)
    alone: dict[str, str] = {}
    merged: dict[tuple[str, str], list[MergedFile]] = {}
    must_pass: dict[str, str] = {}
    must_fail: dict[str, str] = {}
    for test, suffix in found:
        folder = posixpath.dirname(test.path)
        if test.shared is None:
            target, titles = namer.file(folder, suffix), _drawn(namer.titles(test.chain, ()))
            alone[target] = text_of(test.scanned, test.chain, _renames(test.chain, titles))
        else:
            into, titles = _place(namer, merged.setdefault((folder, suffix), []), test, suffix)
            into.titles.add(titles[0])
            into.add(test.scanned, test.shared, test.chain, _renames(test.chain, titles))
            target = into.path
        # node reports each group too, passed or failed with its one test: judged with it.
        names = must_pass if test.kind == "tests" else must_fail
        for depth in range(1, len(titles) + 1):
            given = " > ".join(call.title for call in test.chain[:depth])
            names[f"{target}::{' > '.join(titles[:depth])}"] = f"{test.path}::{given}"
    files = {**alone, **{file.path: file.text() for group in merged.values() for file in group}}
    return HeldOutRun(files=files, must_pass=must_pass, must_fail=must_fail)


def _place(
    namer: Namer, files: list[MergedFile], test: _Test, suffix: str
) -> tuple[MergedFile, list[str]]:
    """The first of ``files`` that ``test`` fits (its imports agree, a top-level name is
    free), or a new one; and the test's names there."""
    assert test.shared is not None
    for file in files:
        if file.fits(test.shared) and (titles := namer.titles(test.chain, file.titles)):
            return file, titles
    file = MergedFile(namer.file(posixpath.dirname(test.path), suffix))
    files.append(file)
    return file, _drawn(namer.titles(test.chain, ()))


def _drawn(titles: list[str] | None) -> list[str]:
    """Names drawn where nothing is used yet, which always succeeds."""
    assert titles is not None
    return titles


def _renames(chain: Sequence[Call], titles: Sequence[str]) -> dict[int, str]:
    """Each call's name token -> its new name as a string literal."""
    return {call.name: _quoted(title) for call, title in zip(chain, titles, strict=True)}


def _quoted(title: str) -> str:
    """``title`` as a JavaScript string literal (plain words: single quotes, as people write)."""
    return "'" + title.replace("\\", "\\\\").replace("'", "\\'") + "'"
