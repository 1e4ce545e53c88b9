"""``garuda eval -s SUITE_DIR``: an imported SWE-bench suite, run like any suite.

A task's workspace is a fresh git repository holding the clone's tree at the instance's
base commit in one commit (no history, no object of a later commit), with the built
environment linked in as ``.venv``. The sandbox hides the suite's folder (the reference
patches and held-out tests), each clone (its history holds the fixes) and each environment's
``src/`` (the repository at the environment's commit, which may be later than the task's),
and shows the environment read-only.
"""

from __future__ import annotations

import json
import os
import subprocess
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
    describe_validation_error,
)
from garuda_evals_swebench.gitio import GIT_ENV, export_tree
from garuda_evals_swebench.suitefile import (
    SUITE_FILE,
    TASKS_DIR,
    SavedSuite,
    SavedTask,
    load_task_files,
)

START_MESSAGE = "Task start"
_IDENTITY = ("-c", "user.name=garuda-evals", "-c", "user.email=evals@localhost")


def _git(workspace: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(workspace), *_IDENTITY, "-c", "commit.gpgsign=false", *args],
        check=True,
        capture_output=True,
        env={**os.environ, **GIT_ENV},
    )


def build_workspace(clone: Path, saved: SavedTask, workspace: Path) -> None:
    """The base commit's tree in a fresh repository, and the environment's link."""
    export_tree(clone, saved.base_commit, workspace)
    _git(workspace, "init", "-q", "--template=", "-b", "main")
    _git(workspace, "add", "-A", "-f", ".")
    _git(workspace, "commit", "-q", "--no-verify", "--allow-empty", "-m", START_MESSAGE)
    link = workspace / saved.link
    if not os.path.lexists(link):
        link.symlink_to(saved.env, target_is_directory=True)


class SweSuite(Suite):
    """The tasks of ``swe-suite.json`` in ``folder``."""

    def __init__(self, folder: Path, saved: SavedSuite) -> None:
        self.folder = folder.resolve()
        self.saved = saved
        self.name = saved.name
        self.description = f"SWE-bench instances imported from {saved.source}"
        self._by_id = {task.id: task for task in saved.tasks}
        self._tasks: list[Task] | None = None

    def tasks(self) -> list[Task]:
        """Every imported task (skipped instances are not tasks)."""
        if self._tasks is None:
            self._tasks = [self._task(saved) for saved in self.saved.tasks]
        return self._tasks

    def _task(self, saved: SavedTask) -> Task:
        files = load_task_files(self.folder, saved.id)
        where = self.folder / TASKS_DIR / f"{saved.id}.json"
        try:
            solution = Solution(files=files.solution, delete=files.delete)
        except ValidationError as error:
            text = describe_validation_error(where, error)
            raise FileFormatError(text.replace("field 'files", "field 'solution", 1)) from error
        try:
            held_out = HeldOut(tests=files.tests, fixed_ids=True)
        except ValidationError as error:
            raise FileFormatError(describe_validation_error(where, error)) from error
        return Task(
            id=saved.id,
            title=f"{saved.repo} {saved.id}",
            prompt=saved.prompt,
            suite=self.name,
            check=CheckSpec(command=saved.command, runner=saved.runner, timeout_s=saved.timeout_s),
            protected=saved.protected,
            solution=solution,
            held_out=held_out,
            expected_tests=[*saved.fail_to_pass, *saved.pass_to_pass],
            metadata={
                "repo": saved.repo,
                "base_commit": saved.base_commit,
                "version": saved.version or "",
                "fail_to_pass": json.dumps(saved.fail_to_pass),
                "pass_to_pass": json.dumps(saved.pass_to_pass),
                "pythonpath": json.dumps(saved.pythonpath),
            },
            source=str(self.folder / SUITE_FILE),
        )

    def _clone(self, saved: SavedTask) -> Path:
        clone = Path(self.saved.repos[saved.repo])
        if not clone.is_dir():
            raise FileFormatError(
                f"{self.folder / SUITE_FILE}: field 'repos.{saved.repo}': {clone} is not there "
                "any more (import the suite again with --repos)"
            )
        return clone

    def materialize(self, task: Task, workspace: Path) -> None:
        """A fresh repository at the task's base commit, with its environment linked."""
        saved = self._by_id[task.id]
        build_workspace(self._clone(saved), saved, workspace)

    def policy(self, task: Task, base: SandboxPolicy) -> SandboxPolicy:
        """Hide the suite, the clones and the environment's checkout; show the environment
        read-only."""
        saved = self._by_id[task.id]
        env = Path(saved.env).resolve()
        hidden = [
            self.folder,
            *(Path(path) for path in self.saved.repos.values()),
            env.parent / "src",
        ]
        return replace(
            base,
            hidden=tuple(dict.fromkeys([*base.hidden, *hidden])),
            read_only=tuple(dict.fromkeys([*base.read_only, env])),
        )

    def environment(self, task: Task, workspace: Path) -> dict[str, str]:
        """``PYTHONPATH``: the task folder's import roots, as the check has them."""
        saved = self._by_id[task.id]
        roots = [
            str(workspace / root) if root != "." else str(workspace) for root in saved.pythonpath
        ]
        return {"PYTHONPATH": os.pathsep.join(roots)} if roots else {}
