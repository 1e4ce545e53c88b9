"""``garuda eval -s SUITE_DIR``: an imported Exercism suite, run like any suite.

A task's workspace is the exercise's files as the track ships them (the stub and its tests);
its reference solution the example files. The sandbox hides the suite's folder and the track
the suite was imported from (both hold the examples).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pydantic import ValidationError

from garuda_evals.api import (
    CheckSpec,
    FileFormatError,
    SandboxPolicy,
    Solution,
    Suite,
    Task,
    describe_validation_error,
)
from garuda_evals_exercism.suitefile import Entry, SavedSuite, load_task, task_path


class ExercismSuite(Suite):
    """The tasks of ``exercism-suite.json`` in ``folder``."""

    def __init__(self, folder: Path, saved: SavedSuite) -> None:
        self.folder = folder.resolve()
        self.saved = saved
        self.name = saved.name
        self.description = f"Exercism exercises imported from {saved.source}"
        self._tasks: list[Task] | None = None

    def tasks(self) -> list[Task]:
        """Every imported exercise (skipped ones are not tasks)."""
        if self._tasks is None:
            self._tasks = [self._task(entry) for entry in self.saved.tasks]
        return self._tasks

    def _task(self, entry: Entry) -> Task:
        saved = load_task(self.folder, entry.id)
        try:
            return Task(
                id=entry.id,
                title=saved.title,
                prompt=saved.prompt,
                suite=self.name,
                files=saved.files,
                check=CheckSpec(
                    command=saved.command, runner=saved.runner, timeout_s=saved.timeout_s
                ),
                protected=saved.protected,
                requires=saved.requires,
                solution=Solution(files=saved.solution),
                expected_tests=entry.expected_tests,
                metadata={"language": saved.language, "source": "exercism"},
                source=str(task_path(self.folder, entry.id)),
            )
        except ValidationError as error:
            raise FileFormatError(
                describe_validation_error(task_path(self.folder, entry.id), error)
            ) from error

    def policy(self, task: Task, base: SandboxPolicy) -> SandboxPolicy:
        """Hide the suite's folder and the track it came from."""
        hidden = [self.folder, Path(self.saved.source)]
        return replace(base, hidden=tuple(dict.fromkeys([*base.hidden, *hidden])))
