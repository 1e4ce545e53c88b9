"""Held-out ``node --test`` tests and their canaries, renamed for one run of the judge.

Every test of the task's held-out and canary files (``jsscan``: a ``test``/``it`` call,
alone or inside ``describe``/``suite`` groups) becomes a file of its own: the source file
without comments and without its other tests, that one test and its groups under names
drawn from the run's nonce, in the folder the source's path names, with the source's suffix
(``.test.js``, ``.test.mjs``, ``.test.cjs``: node loads it as an ES module or CommonJS as it
would load the source there), named like the runner's canaries (two words and the suffix).
Held-out tests and canaries then differ only in what they assert. The tests of all the
files are shuffled before they are named and written, so neither the names nor the order of
the files follow the kind. An id is what the runner's reporter reports,
``<file>::<group> > <test>``; a group is a case of its own (``<file>::<group>``), judged
with its one test.
"""

from __future__ import annotations

import posixpath
import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from garuda_evals.api import FileFormatError, HeldOutRun
from garuda_evals_node.canaries import PHRASES, TEST_FILE, WORDS
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


@dataclass(frozen=True)
class _Test:
    """One test of a source file: where it comes from and the calls down to it."""

    kind: str  # "tests" or "canaries": the folder of the task it comes from
    path: str
    scanned: Scanned
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
    tests: Mapping[str, str], canaries: Mapping[str, str], taken: Collection[str], nonce: str
) -> HeldOutRun:
    """The held-out ``tests`` and ``canaries`` (path -> text) as one file per test for this
    run; ``taken`` are the paths already in the judge's folder."""
    rng = random.Random(f"held-out {nonce}")
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
            found += [(_Test(kind, path, scanned, chain), suffix) for chain in chains]
    rng.shuffle(found)
    files: dict[str, str] = {}
    must_pass: dict[str, str] = {}
    must_fail: dict[str, str] = {}
    for test, suffix in found:
        target = namer.file(posixpath.dirname(test.path), suffix)
        titles = [namer.group() for _ in test.chain[:-1]] + [namer.test()]
        files[target] = text_of(
            test.scanned,
            test.chain,
            {call.name: _quoted(title) for call, title in zip(test.chain, titles, strict=True)},
        )
        # node reports each group too, passed or failed with its one test: judged with it.
        names = must_pass if test.kind == "tests" else must_fail
        for depth in range(1, len(titles) + 1):
            given = " > ".join(call.title for call in test.chain[:depth])
            names[f"{target}::{' > '.join(titles[:depth])}"] = f"{test.path}::{given}"
    return HeldOutRun(files=files, must_pass=must_pass, must_fail=must_fail)


def _quoted(title: str) -> str:
    """``title`` as a JavaScript string literal (plain words: single quotes, as people write)."""
    return "'" + title.replace("\\", "\\\\").replace("'", "\\'") + "'"
