"""``garuda import exercism``: a track's practice exercises into a saved suite, proved.

Each exercise is read (``exercises``), given its track's check (``languages``) and saved;
then every task not proved before is judged as ``garuda suite check`` judges it: as shipped
it must FAIL, with the example files PASS. The tests the example makes pass are pinned. An
exercise that cannot be a sound task is skipped with its reason, saved with the suite and
never run.

Imports are idempotent: an exercise whose files, check and plugin version are unchanged is
kept without being proved again, and so is one skipped then for its check.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any, TypeVar

import anyio
import click

from garuda_evals.api import (
    FileFormatError,
    GarudaError,
    Suite,
    SuiteBuilder,
    TaskSoundness,
    UsageError,
    check_suite,
    choose_executor,
    get_registry,
)
from garuda_evals_exercism import __version__
from garuda_evals_exercism.exercises import Refused, find_exercises, read_exercise
from garuda_evals_exercism.languages import language_of, prompt, title
from garuda_evals_exercism.suite import ExercismSuite
from garuda_evals_exercism.suitefile import (
    SCHEMA_VERSION,
    SUITE_FILE,
    Entry,
    SavedSuite,
    SavedTask,
    Skipped,
    load_saved,
    load_task,
    save_suite,
    save_task,
    task_path,
)

T = TypeVar("T")
DEFAULT_OUTPUT = "exercism-suite"
CHECK_TIMEOUT_S = 120.0


def progress(items: list[T], label: str) -> AbstractContextManager[Iterable[T]]:
    """A progress bar on a terminal; elsewhere the items as they are."""
    if sys.stderr.isatty() and len(items) > 1:
        return click.progressbar(items, label=label, file=sys.stderr, show_pos=True)  # type: ignore[return-value]
    return nullcontext(items)


def proof_of(entry: Entry, task: SavedTask) -> str:
    """What a proof holds for: the exercise, its check, this plugin's version."""
    data = [entry.digest, task.command, task.runner, task.protected, __version__]
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()[:16]


class ExercismBuilder(SuiteBuilder):
    """Imports Exercism exercises (``garuda import exercism``)."""

    name = "exercism"

    def open(self, folder: Path) -> Suite:
        """The suite saved in ``folder``."""
        return ExercismSuite(folder, load_saved(folder))

    def build(self, options: Mapping[str, Any], *, cwd: Path, echo: Callable[[str], None]) -> int:
        """Import, prove, save; print the kept count and each skipped exercise's reason."""
        return _Import(options, cwd, echo).run()


class _Import:
    def __init__(self, options: Mapping[str, Any], cwd: Path, echo: Callable[[str], None]) -> None:
        self.echo = echo
        self.source = (cwd / options["track"]).resolve()
        if not self.source.is_dir():
            raise UsageError(f"TRACK_DIR {options['track']}: not a folder")
        self.output = (cwd / (options.get("output") or DEFAULT_OUTPUT)).resolve()
        self.check = not options.get("no_check", False)
        self.parallel = int(options.get("parallel") or 2)
        self.name = options.get("name") or re.sub(r"[^a-z0-9_.-]", "-", self.output.name.lower())
        self.max_tasks = options.get("max_tasks")
        pattern = options.get("filter")
        try:
            self.pattern = re.compile(pattern) if pattern else None
        except re.error as error:
            raise UsageError(f"--filter {pattern}: not a regular expression: {error}") from error
        self.skipped: dict[str, Skipped] = {}

    def chosen(self) -> list[Path]:
        folders = find_exercises(self.source)
        if self.pattern is not None:
            folders = [f for f in folders if self.pattern.search(f.name)]
        if self.max_tasks is not None:
            folders = folders[: int(self.max_tasks)]
        if not folders:
            raise GarudaError(
                f"{self.source}: no exercise to import (a folder holding .meta/config.json; "
                "after --filter and --max-tasks)"
            )
        return folders

    def previous(self) -> SavedSuite | None:
        if not (self.output / SUITE_FILE).is_file():
            if self.output.exists() and any(self.output.iterdir()):
                raise UsageError(
                    f"-o {self.output}: a folder that holds no {SUITE_FILE}: give a new or empty folder"
                )
            return None
        try:
            return load_saved(self.output)
        except FileFormatError as error:
            self.echo(
                f"note: the saved suite cannot be read ({error}); importing every exercise again"
            )
            return None

    def run(self) -> int:
        folders = self.chosen()
        previous = self.previous()
        self.echo(f"Importing {len(folders)} exercise(s) from {self.source} into {self.output}.")
        entries = self.make_tasks(folders, previous)
        suite = self._suite(entries, folders)
        save_suite(self.output, suite)
        if self.check:
            suite = self._suite(self.prove(suite), folders)
            save_suite(self.output, suite)
        self.summary(suite)
        return 0 if suite.tasks else 1

    def _suite(self, entries: list[Entry], folders: list[Path]) -> SavedSuite:
        order = {folder.name: n for n, folder in enumerate(folders)}
        skipped = sorted(self.skipped.values(), key=lambda item: order.get(item.id, 0))
        return SavedSuite(
            schema_version=SCHEMA_VERSION,
            name=self.name,
            source=str(self.source),
            tasks=[entry for entry in entries if entry.id not in self.skipped],
            skipped=skipped,
        )

    def make_tasks(self, folders: list[Path], previous: SavedSuite | None) -> list[Entry]:
        """Each exercise's saved task (kept from ``previous`` when nothing changed)."""
        kept = {entry.id: entry for entry in previous.tasks} if previous else {}
        earlier = {item.id: item for item in previous.skipped} if previous else {}
        entries: list[Entry] = []
        with progress(folders, "exercises") as items:
            for folder in items:
                try:
                    exercise = read_exercise(folder)
                    language = language_of(exercise)
                except Refused as error:
                    self.skipped[folder.name] = Skipped(id=folder.name, reason=f"input: {error}")
                    continue
                old, gone = kept.get(exercise.slug), earlier.get(exercise.slug)
                if gone is not None and gone.digest == exercise.digest:
                    self.skipped[exercise.slug] = gone
                    continue
                task = SavedTask(
                    id=exercise.slug,
                    language=language.name,
                    title=title(exercise.slug),
                    prompt=prompt(exercise),
                    files={**language.added, **exercise.files},
                    solution=exercise.reference,
                    protected=sorted({*exercise.test_paths, *language.protected}),
                    requires=list(language.requires),
                    command=language.command,
                    runner=language.runner,
                    timeout_s=CHECK_TIMEOUT_S,
                )
                entry = Entry(id=exercise.slug, digest=exercise.digest)
                if (
                    old is not None
                    and old.digest == exercise.digest
                    and old.proof == proof_of(entry, task)
                    and task_path(self.output, old.id).is_file()
                ):
                    entries.append(old)
                    continue
                save_task(self.output, task)
                entries.append(entry)
        return entries

    def prove(self, saved: SavedSuite) -> list[Entry]:
        """Judge each task not proved before as shipped (FAIL) and solved (PASS); pin the
        tests the solved run passed."""
        suite = ExercismSuite(self.output, saved)
        todo = [entry for entry in saved.tasks if not entry.proof]
        if not todo:
            return saved.tasks
        backend = choose_executor("auto", get_registry()).backend
        self.echo(f"Checking {len(todo)} task(s) as garuda suite check does ({backend.name}):")
        results: dict[str, TaskSoundness] = {}
        total, done = len(todo), 0

        def show(item: TaskSoundness) -> None:
            nonlocal done
            done += 1
            results[item.task] = item
            state = "sound" if item.sound else f"skipped: {item.problems[0]}"
            self.echo(f"  [{done}/{total}] {item.task}: {state}")

        ids = tuple(entry.id for entry in todo)
        anyio.run(
            lambda: check_suite(
                suite, backend=backend, repeat=1, parallel=self.parallel, task_ids=ids, on_task=show
            )
        )
        entries: list[Entry] = []
        for entry in saved.tasks:
            item = results.get(entry.id)
            if item is None:
                entries.append(entry)
            elif item.sound:
                proof = proof_of(entry, load_task(self.output, entry.id))
                pins = list(item.passed_tests)
                entries.append(entry.model_copy(update={"proof": proof, "expected_tests": pins}))
            else:
                self.skipped[entry.id] = Skipped(
                    id=entry.id, reason=f"check: {item.problems[0]}", digest=entry.digest
                )
        return entries

    def summary(self, suite: SavedSuite) -> None:
        self.echo(
            f"{len(suite.tasks)} task(s) saved in {self.output / SUITE_FILE}; "
            f"{len(suite.skipped)} exercise(s) skipped."
        )
        if suite.skipped:
            self.echo("Skipped exercises are never run and never count against an agent:")
            for item in suite.skipped:
                self.echo(f"  {item.id}: {item.reason}")
        if suite.tasks:
            self.echo(f"Run it: garuda eval -s {self.output}")
