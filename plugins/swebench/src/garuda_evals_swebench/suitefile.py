"""The saved suite: ``swe-suite.json`` (the index) and ``tasks/<id>.json`` (each task's files).

A task's workspace is not saved: it is the repository's clone at ``baseCommit``, exported
when the task runs. Its reference solution (the instance's ``patch``) and held-out tests
(``test_patch``) are saved as the files they make, since the clone is never written to.
Every file is validated with pydantic; a corrupt one is one error naming the file and field.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError

from garuda_evals.api import FileFormatError, Model, describe_validation_error, parse_json

SUITE_FILE = "swe-suite.json"
TASKS_DIR = "tasks"
SCHEMA_VERSION = 1


class SavedTask(Model):
    """One imported instance, as ``garuda eval`` runs it."""

    id: str
    repo: str
    base_commit: str
    version: str | None = None
    digest: str = Field(description="the instance's fields' hash: a changed one is imported again")
    env_key: str
    env: str = Field(description="the built environment, linked into the task as ``link``")
    link: str = ".venv"
    prompt: str
    fail_to_pass: list[str]
    pass_to_pass: list[str]
    runner: str
    command: str
    timeout_s: float
    protected: list[str]
    pythonpath: list[str]
    proof: str = Field(
        default="", description="the digest it was proved sound under ('': not proved)"
    )


class Skipped(Model):
    """An instance left out, and why; never run, never counted against an agent."""

    id: str
    repo: str
    reason: str
    digest: str = ""
    env_key: str = ""


class SavedSuite(Model):
    """The index of an imported suite."""

    schema_version: Literal[1]
    name: str
    source: str
    repos: dict[str, str] = Field(description="owner/name -> the clone the workspaces come from")
    tasks: list[SavedTask]
    skipped: list[Skipped] = Field(default_factory=list)


class TaskFiles(Model):
    """A task's saved files: the reference solution's and the held-out tests'."""

    solution: dict[str, str]
    delete: list[str] = Field(default_factory=list)
    tests: dict[str, str]


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


def load_task_files(folder: Path, task_id: str) -> TaskFiles:
    """The saved files of one task."""
    files = _validated(folder / TASKS_DIR / f"{task_id}.json", TaskFiles)
    assert isinstance(files, TaskFiles)
    return files


def _write(path: Path, data: object) -> None:
    """Write JSON atomically (a reader never sees half a file)."""
    scratch = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    scratch.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    scratch.replace(path)


def save_task_files(folder: Path, task_id: str, files: TaskFiles) -> None:
    """Write one task's files."""
    (folder / TASKS_DIR).mkdir(parents=True, exist_ok=True)
    _write(folder / TASKS_DIR / f"{task_id}.json", files.to_json_dict())


def save_suite(folder: Path, suite: SavedSuite) -> Path:
    """Write the index (after the task files it names)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / SUITE_FILE
    _write(path, suite.to_json_dict())
    return path
