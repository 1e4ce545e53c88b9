"""``garuda import harbor``: Harbor / Terminal-Bench task folders into a saved suite, proved.

Each task folder is read (``taskdir``), its Dockerfile met by this host (``host``) or the
task refused in one line naming what is missing, its ``solution/solve.sh`` run once for the
reference solution (``reference``), and the task saved; then every task not proved before is
judged as ``garuda suite check`` judges it: as shipped it must FAIL, with the reference
PASS. A task that cannot be a sound task is skipped with its reason, saved with the suite
and never run.

Imports are idempotent: a task whose folder, check and plugin version are unchanged is kept
without being proved again, and so is one skipped then for its input, its reference or its
check (a task refused for this host's environment is looked at again).
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
    ExecutorBackend,
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
from garuda_evals_harbor import __version__
from garuda_evals_harbor.host import missing
from garuda_evals_harbor.paths import prompt_text
from garuda_evals_harbor.reference import capture
from garuda_evals_harbor.refusal import Refused
from garuda_evals_harbor.suite import HarborSuite
from garuda_evals_harbor.suitefile import (
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
from garuda_evals_harbor.taskdir import (
    DEFAULT_AGENT_S,
    DEFAULT_VERIFIER_S,
    HarborTask,
    find_tasks,
    read_task,
)

T = TypeVar("T")
DEFAULT_OUTPUT = "harbor-suite"
CACHED_STAGES = ("input", "reference", "check")
"""Skips kept from an earlier import of the same task folder (deterministic); a task refused
for this host's environment is looked at again (the host may have changed)."""


def progress(items: list[T], label: str) -> AbstractContextManager[Iterable[T]]:
    """A progress bar on a terminal; elsewhere the items as they are."""
    if sys.stderr.isatty() and len(items) > 1:
        return click.progressbar(items, label=label, file=sys.stderr, show_pos=True)  # type: ignore[return-value]
    return nullcontext(items)


def proof_of(entry: Entry, task: SavedTask) -> str:
    """What a proof holds for: the task folder, the reference, this plugin's version."""
    data = [entry.digest, task.solution, task.delete, task.min_reward, __version__]
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def stage(item: Skipped) -> str:
    """``input``, ``environment``, ``reference`` or ``check``: a skip's first word."""
    return item.reason.split(":", 1)[0]


class HarborBuilder(SuiteBuilder):
    """Imports Harbor task folders (``garuda import harbor``)."""

    name = "harbor"

    def open(self, folder: Path) -> Suite:
        """The suite saved in ``folder``."""
        return HarborSuite(folder, load_saved(folder))

    def build(self, options: Mapping[str, Any], *, cwd: Path, echo: Callable[[str], None]) -> int:
        """Import, prove, save; print the kept count and each skipped task's reason."""
        return _Import(options, cwd, echo).run()


def _requires(task: HarborTask) -> list[str]:
    kinds = {need.kind for need in task.environment.needs}
    pips = {
        need.name.split("=")[0].split("<")[0].split(">")[0].strip().lower()
        for need in task.environment.needs
        if need.kind == "pip"
    }
    found = ["node"] if "node" in kinds else []
    if "pytest" in pips:
        found.append("pytest")
    return found


class _Import:
    def __init__(self, options: Mapping[str, Any], cwd: Path, echo: Callable[[str], None]) -> None:
        self.echo = echo
        self.source = (cwd / options["tasks"]).resolve()
        if not self.source.is_dir():
            raise UsageError(f"TASKS_DIR {options['tasks']}: not a folder")
        self.output = (cwd / (options.get("output") or DEFAULT_OUTPUT)).resolve()
        self.check = not options.get("no_check", False)
        self.parallel = int(options.get("parallel") or 2)
        self.min_reward = float(options.get("min_reward") or 1.0)
        self.name = options.get("name") or re.sub(r"[^a-z0-9_.-]", "-", self.output.name.lower())
        self.max_tasks = options.get("max_tasks")
        pattern = options.get("filter")
        try:
            self.pattern = re.compile(pattern) if pattern else None
        except re.error as error:
            raise UsageError(f"--filter {pattern}: not a regular expression: {error}") from error
        self.skipped: dict[str, Skipped] = {}
        self._backend: ExecutorBackend | None = None

    @property
    def backend(self) -> ExecutorBackend:
        if self._backend is None:
            self._backend = choose_executor("auto", get_registry()).backend
        return self._backend

    def chosen(self) -> list[Path]:
        folders = find_tasks(self.source)
        if self.pattern is not None:
            folders = [f for f in folders if self.pattern.search(f.name)]
        if self.max_tasks is not None:
            folders = folders[: int(self.max_tasks)]
        if not folders:
            raise GarudaError(
                f"{self.source}: no task folder to import (a folder holding instruction.md; "
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
            self.echo(f"note: the saved suite cannot be read ({error}); importing every task again")
            return None

    def run(self) -> int:
        folders = self.chosen()
        previous = self.previous()
        self.echo(f"Importing {len(folders)} task(s) from {self.source} into {self.output}.")
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

    def skip(self, task_id: str, reason: str, digest: str = "") -> None:
        self.skipped[task_id] = Skipped(id=task_id, reason=reason, digest=digest)

    def make_tasks(self, folders: list[Path], previous: SavedSuite | None) -> list[Entry]:
        """Each task folder's saved task (kept from ``previous`` when nothing changed)."""
        kept = {entry.id: entry for entry in previous.tasks} if previous else {}
        earlier = {item.id: item for item in previous.skipped} if previous else {}
        entries: list[Entry] = []
        with progress(folders, "tasks") as items:
            for folder in items:
                try:
                    task = read_task(folder)
                except Refused as error:
                    self.skip(folder.name, f"input: {error.reason}")
                    continue
                gone = earlier.get(task.id)
                if gone is not None and gone.digest == task.digest and stage(gone) in CACHED_STAGES:
                    self.skipped[task.id] = gone
                    continue
                lacking = missing(task.environment.needs)
                if lacking is not None:
                    need, problem = lacking
                    where = f"{task.id}/environment/Dockerfile:{need.line}"
                    self.skip(task.id, f"environment: {where}: {problem}", task.digest)
                    continue
                old = kept.get(task.id)
                if self._unchanged(old, task):
                    assert old is not None
                    entries.append(old)
                    continue
                entry = self.make_task(task)
                if entry is not None:
                    entries.append(entry)
        return entries

    def _unchanged(self, old: Entry | None, task: HarborTask) -> bool:
        """Saved and proved before from this same folder, check and plugin version."""
        if old is None or old.digest != task.digest or not old.proof:
            return False
        if not task_path(self.output, old.id).is_file():
            return False
        return old.proof == proof_of(old, load_task(self.output, old.id))

    def make_task(self, task: HarborTask) -> Entry | None:
        env = task.environment
        agent_s = task.config.agent.timeout_sec or DEFAULT_AGENT_S
        try:
            captured = anyio.run(
                lambda: capture(
                    backend=self.backend,
                    workdir=env.workdir,
                    shipped=task.files,
                    solution=task.solution,
                    env=env.env,
                    timeout_s=agent_s,
                )
            )
        except Refused as error:
            self.skip(task.id, f"reference: {error.reason}", task.digest)
            return None
        if not captured.files and not captured.delete:
            self.skip(
                task.id,
                "reference: solution/solve.sh changed nothing in the working folder",
                task.digest,
            )
            return None
        metadata = {
            str(key): str(value)
            for key, value in task.config.metadata.items()
            if isinstance(value, str | int | float | bool)
        }
        saved = SavedTask(
            id=task.id,
            title=str(task.config.metadata.get("title") or task.id),
            prompt=prompt_text(task.instruction, env.workdir),
            workdir=env.workdir,
            env=env.env,
            files=task.files,
            solution=captured.files,
            delete=captured.delete,
            tests=task.tests,
            requires=_requires(task),
            verifier_timeout_s=task.config.verifier.timeout_sec or DEFAULT_VERIFIER_S,
            agent_timeout_s=agent_s,
            min_reward=self.min_reward,
            metadata=metadata,
        )
        save_task(self.output, saved)
        return Entry(id=task.id, digest=task.digest)

    def prove(self, saved: SavedSuite) -> list[Entry]:
        """Judge each task not proved before as shipped (FAIL) and solved (PASS)."""
        todo = [entry for entry in saved.tasks if not entry.proof]
        if not todo:
            return saved.tasks
        suite = HarborSuite(self.output, saved)
        self.echo(f"Checking {len(todo)} task(s) as garuda suite check does ({self.backend.name}):")
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
                suite,
                backend=self.backend,
                repeat=1,
                parallel=self.parallel,
                task_ids=ids,
                on_task=show,
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
                self.skip(entry.id, f"check: {item.problems[0]}", entry.digest)
        return entries

    def summary(self, suite: SavedSuite) -> None:
        self.echo(
            f"{len(suite.tasks)} task(s) saved in {self.output / SUITE_FILE}; "
            f"{len(suite.skipped)} task(s) skipped."
        )
        if suite.skipped:
            self.echo("Skipped tasks are never run and never count against an agent:")
            for item in suite.skipped:
                self.echo(f"  {item.id}: {item.reason}")
        if suite.tasks:
            self.echo(f"Run it: garuda eval -s {self.output}")
