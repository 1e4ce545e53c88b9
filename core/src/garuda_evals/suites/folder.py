"""Load a suite from a folder: no Python needed to write tasks.

Layout::

    my-suite/
      suite.toml          name, description, requires, protected, [check]
      shared/             files copied into every task (for example pyproject.toml)
      <task-id>/
        task.toml         title, prompt, optional id/requires/protected/[check]/solution_delete
        files/            the workspace as shipped
        solution/         files the reference solution writes
        heldout/          tests only the judge runs (never in the workspace)
        canaries/         look-alikes of the held-out tests that must fail

Every path a manifest names stays inside the task (``models.relpath``); a symbolic link or
special file anywhere in the suite's folders is refused at load, naming the file.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from garuda_evals.errors import FileFormatError, describe_validation_error
from garuda_evals.executors.base import SandboxPolicy
from garuda_evals.files import load_model, parse_toml
from garuda_evals.models.task import DEFAULT_PROTECTED, CheckSpec, HeldOut, Solution, Task
from garuda_evals.suites.base import Suite
from garuda_evals.suites.manifest import CheckManifest, SuiteManifest, TaskManifest
from garuda_evals.suites.pinning import apply_pins
from garuda_evals.suites.tree import SKIPPED_FOLDERS, check_entries, read_tree, walk_files

M = TypeVar("M", bound=BaseModel)

SUITE_FILE = "suite.toml"
TASK_FILE = "task.toml"
SHARED_FOLDER = "shared"


def _read_toml(path: Path, model: type[M]) -> M:
    return load_model(path, model, parse_toml)


def _check(path: Path, own: CheckManifest | None, default: CheckManifest | None) -> CheckSpec:
    chosen = own or default
    if chosen is None:
        raise FileFormatError(f"{path}: field 'check': no [check] here or in {SUITE_FILE}")
    return CheckSpec(command=chosen.command, runner=chosen.runner, timeout_s=chosen.timeout_s)


def load_task(folder: Path, suite: SuiteManifest, shared: dict[str, str]) -> Task:
    """Load one task folder against its suite's manifest and shared files."""
    walk_files(folder)
    manifest_path = folder / TASK_FILE
    manifest = _read_toml(manifest_path, TaskManifest)
    own_files = read_tree(folder / "files")
    clash = sorted(set(own_files) & set(shared))
    if clash:
        raise FileFormatError(f"{folder / 'files' / clash[0]}: also a shared file of the suite")
    solution_files = read_tree(folder / "solution")
    held_out_tests, canaries = read_tree(folder / "heldout"), read_tree(folder / "canaries")
    try:
        solution = (
            Solution(files=solution_files, delete=manifest.solution_delete)
            if solution_files or manifest.solution_delete
            else None
        )
        return Task(
            id=manifest.id or folder.name,
            title=manifest.title,
            prompt=manifest.prompt.strip(),
            suite=suite.name,
            files={**shared, **own_files},
            check=_check(manifest_path, manifest.check, suite.check),
            protected=_unique([*DEFAULT_PROTECTED, *suite.protected, *manifest.protected]),
            requires=_unique([*suite.requires, *manifest.requires]),
            solution=solution,
            held_out=HeldOut(tests=held_out_tests, canaries=canaries)
            if held_out_tests or canaries
            else None,
            metadata=manifest.metadata,
            source=str(manifest_path),
        )
    except ValidationError as error:
        raise FileFormatError(describe_validation_error(manifest_path, error)) from error


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


class FolderSuite(Suite):
    """A suite read from a folder in the task format."""

    def __init__(self, root: Path) -> None:
        self.root = root
        check_entries(root)
        self.manifest = _read_toml(root / SUITE_FILE, SuiteManifest)
        self.name = self.manifest.name
        self.description = self.manifest.description
        self._tasks: list[Task] | None = None

    def tasks(self) -> list[Task]:
        """Every task folder (one holding task.toml), sorted by folder name."""
        if self._tasks is None:
            shared = read_tree(self.root / SHARED_FOLDER)
            folders = sorted(p.parent for p in self.root.glob(f"*/{TASK_FILE}"))
            if not folders:
                raise FileFormatError(f"{self.root}: no task folders (each needs a {TASK_FILE})")
            tasks = [load_task(folder, self.manifest, shared) for folder in folders]
            self._tasks = apply_pins(self.root, tasks)
            ids = [task.id for task in self._tasks]
            duplicate = next((i for i in ids if ids.count(i) > 1), None)
            if duplicate:
                raise FileFormatError(f"{self.root}: two tasks have the id '{duplicate}'")
        return self._tasks

    def folders_without_manifest(self) -> list[Path]:
        """Folders of the suite (not ``shared/``, hidden or ``__pycache__``) with no task.toml.

        ``tasks()`` leaves them out; ``garuda suite check`` names each (a misspelled
        ``task.toml`` would otherwise drop a task without a word).
        """
        return sorted(
            path
            for path in self.root.iterdir()
            if path.is_dir()
            and path.name != SHARED_FOLDER
            and not path.name.startswith(".")
            and path.name not in SKIPPED_FOLDERS
            and not (path / TASK_FILE).is_file()
        )

    def policy(self, task: Task, base: SandboxPolicy) -> SandboxPolicy:
        """Hide the suite's own folder: it holds every task's reference solution."""
        return replace(base, hidden=(*base.hidden, self.root))


def load_folder_suite(root: Path) -> FolderSuite:
    """Load ``root`` as a suite; a missing suite.toml is an error naming the file."""
    if not (root / SUITE_FILE).is_file():
        raise FileFormatError(f"{root / SUITE_FILE}: not found (a suite folder needs one)")
    return FolderSuite(root)
