"""The saved suite: ``exercism-suite.json`` (the index) and ``tasks/<id>.json`` (each task).

Every file is validated with pydantic; a corrupt one is one error naming the file and field.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError

from garuda_evals.api import FileFormatError, Model, describe_validation_error, parse_json

SUITE_FILE = "exercism-suite.json"
TASKS_DIR = "tasks"
SCHEMA_VERSION = 1


class SavedTask(Model):
    """One imported exercise, as ``garuda eval`` runs it."""

    id: str
    language: str
    title: str
    prompt: str
    files: dict[str, str] = Field(description="the workspace as shipped")
    solution: dict[str, str] = Field(description="the example files at the solution paths")
    protected: list[str]
    requires: list[str]
    command: str
    runner: str
    timeout_s: float


class Entry(Model):
    """A task of the index: where it came from and whether it was proved."""

    id: str
    digest: str = Field(description="the exercise's files' hash: a changed one is imported again")
    proof: str = Field(
        default="", description="the digest it was proved sound under ('': not proved)"
    )
    expected_tests: list[str] | None = Field(
        default=None, description="the test ids the reference solution made pass (pinned)"
    )


class Skipped(Model):
    """An exercise left out, and why; never run, never counted against an agent."""

    id: str
    reason: str
    digest: str = ""


class SavedSuite(Model):
    """The index of an imported suite."""

    schema_version: Literal[1]
    name: str
    source: str
    tasks: list[Entry]
    skipped: list[Skipped] = Field(default_factory=list)


def _validated(path: Path, model: type[Model]) -> Model:
    data = parse_json(path)
    if isinstance(data, dict) and model is SavedSuite:
        version = data.get("schemaVersion")
        if version is not None and version != SCHEMA_VERSION:
            raise FileFormatError(
                f"{path}: field 'schemaVersion': {version!r} is not {SCHEMA_VERSION} "
                "(import the suite again with this garuda)"
            )
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise FileFormatError(describe_validation_error(path, error)) from error


def load_saved(folder: Path) -> SavedSuite:
    """The index of the suite saved in ``folder``."""
    saved = _validated(folder / SUITE_FILE, SavedSuite)
    assert isinstance(saved, SavedSuite)
    return saved


def task_path(folder: Path, task_id: str) -> Path:
    """Where one task is saved."""
    return folder / TASKS_DIR / f"{task_id}.json"


def load_task(folder: Path, task_id: str) -> SavedTask:
    """One saved task."""
    task = _validated(task_path(folder, task_id), SavedTask)
    assert isinstance(task, SavedTask)
    return task


def _write(path: Path, data: object) -> None:
    """Write JSON atomically (a reader never sees half a file)."""
    scratch = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    scratch.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    scratch.replace(path)


def save_task(folder: Path, task: SavedTask) -> None:
    """Write one task."""
    (folder / TASKS_DIR).mkdir(parents=True, exist_ok=True)
    _write(task_path(folder, task.id), task.to_json_dict())


def save_suite(folder: Path, suite: SavedSuite) -> Path:
    """Write the index (after the task files it names); drop task files it does not name."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / SUITE_FILE
    _write(path, suite.to_json_dict())
    named = {f"{entry.id}.json" for entry in suite.tasks}
    tasks = folder / TASKS_DIR
    if tasks.is_dir():
        for stale in tasks.glob("*.json"):
            if stale.name not in named:
                stale.unlink()
    return path
