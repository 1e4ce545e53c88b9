"""``garuda eval -s SUITE_DIR``: an imported Harbor suite, run like any suite.

A task's workspace is its working folder as the Dockerfile fills it (``COPY``/``ADD``), its
prompt ``instruction.md`` with the working folder written as the current folder, its
reference solution what ``solution/solve.sh`` wrote there. ``tests/`` is held out: only the
judge writes it, beside its own folder (``checkrunner``). The sandbox hides the suite's
folder and the task folders it was imported from, and shows the judge's tests read-only.
The Dockerfile's ``ENV`` reach the agent's commands too.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from pydantic import ValidationError

from garuda_evals.api import (
    CheckSpec,
    FileFormatError,
    HeldOut,
    SandboxPolicy,
    Solution,
    Suite,
    Task,
    check_environment,
    describe_validation_error,
)
from garuda_evals_harbor.checkrunner import TESTS_PLACEHOLDER, expand, tests_folder
from garuda_evals_harbor.paths import rewrite
from garuda_evals_harbor.suitefile import Entry, SavedSuite, SavedTask, load_task, task_path

CHECK_COMMAND = f"bash {TESTS_PLACEHOLDER}/test.sh"


def make_task(saved: SavedTask, suite: str, expected: list[str] | None, source: str) -> Task:
    """The garuda task of a saved Harbor task."""
    return Task(
        id=saved.id,
        title=saved.title,
        prompt=saved.prompt,
        suite=suite,
        files=saved.files,
        check=CheckSpec(
            command=CHECK_COMMAND, runner="harbor-reward", timeout_s=saved.verifier_timeout_s
        ),
        protected=[],
        requires=saved.requires,
        solution=Solution(files=saved.solution, delete=saved.delete),
        held_out=HeldOut(tests={f"tests/{p}": t for p, t in saved.tests.items()}, fixed_ids=True),
        expected_tests=expected,
        metadata={
            **saved.metadata,
            "workdir": saved.workdir,
            "env": json.dumps(saved.env),
            "min_reward": str(saved.min_reward),
            "agent_timeout_s": str(saved.agent_timeout_s),
        },
        source=source,
    )


class HarborSuite(Suite):
    """The tasks of ``harbor-suite.json`` in ``folder``."""

    def __init__(self, folder: Path, saved: SavedSuite) -> None:
        self.folder = folder.resolve()
        self.saved = saved
        self.name = saved.name
        self.description = f"Harbor tasks imported from {saved.source}"
        self._tasks: list[Task] | None = None

    def tasks(self) -> list[Task]:
        """Every imported task (skipped ones are not tasks)."""
        if self._tasks is None:
            self._tasks = [self._task(entry) for entry in self.saved.tasks]
        return self._tasks

    def _task(self, entry: Entry) -> Task:
        where = task_path(self.folder, entry.id)
        saved = load_task(self.folder, entry.id)
        try:
            return make_task(saved, self.name, entry.expected_tests, str(where))
        except ValidationError as error:
            raise FileFormatError(describe_validation_error(where, error)) from error

    def policy(self, task: Task, base: SandboxPolicy) -> SandboxPolicy:
        """Hide the suite and its source; show the judge's tests (if any) read-only."""
        hidden = [self.folder, Path(self.saved.source)]
        return replace(
            base,
            hidden=tuple(dict.fromkeys([*base.hidden, *hidden])),
            read_only=(*base.read_only, tests_folder(base.workspace)),
        )

    def environment(self, task: Task, workspace: Path) -> dict[str, str]:
        """The Dockerfile's ENV, its container paths written as the agent's folder."""
        declared: dict[str, str] = json.loads(task.metadata.get("env", "{}"))
        env = check_environment()
        found: dict[str, str] = {}
        mapping = {task.metadata.get("workdir", "/app"): str(workspace)}
        for name, value in declared.items():
            env[name] = found[name] = rewrite(expand(value, env), mapping)
        return found
