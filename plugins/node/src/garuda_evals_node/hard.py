"""The hard suite: task folders whose workspace is shopkit plus the task's own changes.

Each task folder holds, beside ``task.toml``, a ``shopkit.toml``::

    [shopkit]                  # generator options for the shipped workspace
    test_customer_name_field = "fullName"

    [[setup]]                  # edits that plant the task in the generated files
    path = "src/util/money.js"
    find = "..."               # must occur exactly once
    replace = "..."

    [solution_shopkit]         # optional: source files of this spec are the solution
    customer_name_field = "fullName"

    [[solution]]               # edits on the shipped files that make the reference solution
    path = "..."
    find = "..."
    replace = "..."

``files/`` adds files (the task's tests) and ``solution/`` whole files of the solution.
``check_data = "inventory.json"`` names a JSON file in the task folder whose compact text,
shell-quoted, replaces ``{check_data}`` in the check command: facts the check needs that
the agent must not see (the command is never shown to the agent; the suite folder is
hidden from the sandbox).
"""

from __future__ import annotations

import json
import shlex
import tomllib
from dataclasses import replace
from pathlib import Path

from pydantic import Field, ValidationError

from garuda_evals.api import (
    FileFormatError,
    FolderSuite,
    ManifestModel,
    SandboxPolicy,
    Solution,
    Suite,
    Task,
    describe_validation_error,
)
from garuda_evals_node.shopkit import ShopkitSpec, generate

EDITS_FILE = "shopkit.toml"
CHECK_DATA = "{check_data}"
PACKAGE_ROOT = Path(__file__).resolve().parent


class Edit(ManifestModel):
    """Replace the one occurrence of ``find`` in ``path`` with ``replace``."""

    path: str
    find: str = Field(min_length=1)
    replace: str


class ShopkitOptions(ManifestModel):
    """Generator options a task may set."""

    customer_name_field: str = "name"
    test_customer_name_field: str | None = None

    def spec(self) -> ShopkitSpec:
        """The generator spec for these options."""
        return ShopkitSpec(
            customer_name_field=self.customer_name_field,
            test_customer_name_field=self.test_customer_name_field,
        )


class TaskEdits(ManifestModel):
    """``shopkit.toml``: how a task's workspace and solution derive from shopkit."""

    shopkit: ShopkitOptions = Field(default_factory=ShopkitOptions)
    setup: list[Edit] = Field(default_factory=list)
    solution_shopkit: ShopkitOptions | None = None
    solution: list[Edit] = Field(default_factory=list)
    check_data: str | None = Field(default=None, pattern=r"^[\w.-]+\.json$")


def read_edits(path: Path) -> TaskEdits:
    """Read ``shopkit.toml``; a bad file is an error naming the file and the field."""
    if not path.is_file():
        return TaskEdits()
    try:
        return TaskEdits.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))
    except tomllib.TOMLDecodeError as error:
        raise FileFormatError(f"{path}: not valid TOML: {error}") from error
    except ValidationError as error:
        raise FileFormatError(describe_validation_error(path, error)) from error


def apply_edit(files: dict[str, str], edit: Edit, source: Path) -> str:
    """The text of ``edit.path`` in ``files`` after the edit; errors name ``source``."""
    if edit.path not in files:
        raise FileFormatError(f"{source}: edit of {edit.path}: no such file")
    text = files[edit.path]
    count = text.count(edit.find)
    if count != 1:
        raise FileFormatError(
            f"{source}: edit of {edit.path}: 'find' occurs {count} times, not once"
        )
    return text.replace(edit.find, edit.replace)


def build_task(task: Task, folder: Path) -> Task:
    """The task with shopkit under its files and its solution completed."""
    source = folder / EDITS_FILE
    edits = read_edits(source)
    files = {**generate(edits.shopkit.spec()), **task.files}
    for edit in edits.setup:
        files[edit.path] = apply_edit(files, edit, source)
    solution = dict(task.solution.files) if task.solution else {}
    if edits.solution_shopkit is not None:
        target = generate(edits.solution_shopkit.spec())
        for path, text in target.items():
            if not path.startswith("test/") and files.get(path) != text:
                solution[path] = text
    for edit in edits.solution:
        solution[edit.path] = apply_edit({**files, **solution}, edit, source)
    delete = list(task.solution.delete) if task.solution else []
    update: dict[str, object] = {
        "files": files,
        "solution": Solution(files=solution, delete=delete),
    }
    if edits.check_data is not None:
        update["check"] = task.check.model_copy(
            update={"command": fill_check_data(task.check.command, folder / edits.check_data)}
        )
    return task.model_copy(update=update)


def fill_check_data(command: str, path: Path) -> str:
    """``command`` with ``{check_data}`` replaced by the shell-quoted compact JSON at ``path``."""
    if CHECK_DATA not in command:
        raise FileFormatError(f"{path}: the check command has no {CHECK_DATA} to fill")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise FileFormatError(f"{path}: not readable JSON: {error}") from error
    text = json.dumps(data, separators=(",", ":"), sort_keys=True)
    return command.replace(CHECK_DATA, shlex.quote(text))


class HardSuite(Suite):
    """Six tasks on shopkit; the workspace of each is generated when the suite loads."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.folder = FolderSuite(root)
        self.name = self.folder.name
        self.description = self.folder.description
        self._tasks: list[Task] | None = None

    def tasks(self) -> list[Task]:
        """The folder's tasks, each with shopkit and its edits applied."""
        if self._tasks is None:
            root = self.folder.root
            self._tasks = [build_task(task, root / task.id) for task in self.folder.tasks()]
        return self._tasks

    def policy(self, task: Task, base: SandboxPolicy) -> SandboxPolicy:
        """Hide this plugin's package: the suite folder and shopkit's generator.

        The generator with other options is the reference solution of the rename task.
        """
        policy = self.folder.policy(task, base)
        return replace(policy, hidden=(*policy.hidden, PACKAGE_ROOT))
