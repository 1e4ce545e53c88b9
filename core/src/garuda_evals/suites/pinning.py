"""Pinned evidence: the test ids each task's reference solution makes pass.

A folder suite keeps them in ``expected-tests.json`` beside ``suite.toml``::

    {"schemaVersion": 1, "tasks": {"<task id>": ["<test id>", ...]}}

A PASS then needs every pinned id present in the runner's report and passed. Write or
refresh the file from the reference solutions with::

    python -m garuda_evals.suites.pinning SUITE_NAME_OR_FOLDER...
"""

from __future__ import annotations

import sys
from pathlib import Path

import anyio

from garuda_evals.errors import FileFormatError, GarudaError
from garuda_evals.files import load_model
from garuda_evals.models.base import Model
from garuda_evals.models.task import Task
from garuda_evals.suites.base import Suite

PIN_FILE = "expected-tests.json"
SCHEMA_VERSION = 1


class PinFile(Model):
    """``expected-tests.json``."""

    schema_version: int
    tasks: dict[str, list[str]]


def load_pins(root: Path) -> dict[str, list[str]] | None:
    """The pins of the suite folder ``root``, or None when it has no pin file."""
    path = root / PIN_FILE
    if not path.is_file():
        return None
    pins = load_model(path, PinFile)
    if pins.schema_version != SCHEMA_VERSION:
        raise FileFormatError(
            f"{path}: field 'schemaVersion': {pins.schema_version} is not {SCHEMA_VERSION}"
        )
    return pins.tasks


def apply_pins(root: Path, tasks: list[Task]) -> list[Task]:
    """``tasks`` with ``expected_tests`` from the pin file; a pin for no task is an error."""
    pins = load_pins(root)
    if pins is None:
        return tasks
    unknown = sorted(set(pins) - {task.id for task in tasks})
    if unknown:
        raise FileFormatError(f"{root / PIN_FILE}: field 'tasks.{unknown[0]}': no such task")
    return [
        task.model_copy(update={"expected_tests": pins[task.id]}) if task.id in pins else task
        for task in tasks
    ]


async def _record_one(suite: Suite, task: Task) -> list[str]:
    from garuda_evals.testing import self_test

    unpinned = task.model_copy(update={"expected_tests": None})
    verdict = await self_test(suite, unpinned, solved=True)
    if not verdict.passed and not (verdict.reason or "").startswith("tests were skipped"):
        raise GarudaError(f"task {task.id}: the reference solution fails: {verdict.reason}")
    return sorted(verdict.passed_tests)


def record_expected(suite: Suite) -> dict[str, list[str]]:
    """Run each task's reference solution through the judge; the ids that passed."""
    return {task.id: anyio.run(_record_one, suite, task) for task in suite.tasks()}


def write_pins(root: Path, pins: dict[str, list[str]]) -> Path:
    """Write ``expected-tests.json`` into the suite folder ``root``."""
    path = root / PIN_FILE
    data = PinFile(schema_version=SCHEMA_VERSION, tasks=dict(sorted(pins.items())))
    path.write_text(data.model_dump_json(by_alias=True, indent=2) + "\n", encoding="utf-8")
    return path


def main(names: list[str]) -> int:
    """Record and write the pins of each named installed suite (or suite folder)."""
    from garuda_evals.plugins.manager import get_registry
    from garuda_evals.runner.selection import load_suite

    suites = get_registry().suites()
    for name in names:
        suite = load_suite(name, suites)
        root = getattr(suite, "root", None)
        if not isinstance(root, Path):
            raise GarudaError(f"suite {name} has no folder to write {PIN_FILE} into")
        print(write_pins(root, record_expected(suite)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
