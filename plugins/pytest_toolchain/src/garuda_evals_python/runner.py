"""The ``pytest`` check runner: JUnit evidence, refusals of runner-changing files, canaries."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from garuda_evals.api import Canaries, CheckPlan, HeldOutRun, JUnitCheckRunner, Task
from garuda_evals_python.canary_text import pytest_canary
from garuda_evals_python.held_out import held_out_run
from garuda_evals_python.refusals import python_refusals

DEFAULT_TEST_FOLDER = "tests"
PYCACHE = "__pycache__"
NOT_WALKED = frozenset({".git", "node_modules", PYCACHE, "target", ".garuda-check", ".venv"})


def _is_test_module(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return name.startswith("test_") and name.endswith(".py")


def folder_of_tests(files: Sequence[str]) -> str:
    """The folder holding most of a task's ``test_*.py`` files (``tests`` when it has none)."""
    folders = Counter(path.rpartition("/")[0] for path in files if _is_test_module(path))
    if not folders:
        return DEFAULT_TEST_FOLDER
    return sorted(folders.items(), key=lambda item: (-item[1], item[0]))[0][0]


def folders_with_tests(workspace: Path) -> list[Path]:
    """Folders of ``workspace`` holding a test module or conftest.py (links not followed)."""
    found = []
    for folder, folders, files in os.walk(workspace):
        folders[:] = [name for name in folders if name not in NOT_WALKED]
        if any(_is_test_module(name) or name == "conftest.py" for name in files):
            found.append(Path(folder))
    return found


def lock_bytecode_caches(workspace: Path) -> list[Path]:
    """An empty ``__pycache__`` file in each test folder, so that neither Python nor pytest's
    assertion rewriting caches bytecode there during the check (code under test could plant
    a rewritten test module for pytest to load). Returns the files made."""
    made = []
    for folder in folders_with_tests(workspace):
        cache = folder / PYCACHE
        if not os.path.lexists(cache):
            cache.touch()
            made.append(cache)
    return made


def _listing(workspace: Path, folder: str) -> list[str]:
    """Names already in ``folder`` of the judge's copy, as relative paths (not followed)."""
    try:
        names = os.listdir(workspace / folder) if folder else os.listdir(workspace)
    except OSError:
        return []
    return [f"{folder}/{name}" if folder else name for name in names]


class PytestCheckRunner(JUnitCheckRunner):
    """pytest writing JUnit XML to ``{junit}``, hardened against the code under test.

    ``refusals`` names agent-changed files that would change how pytest runs or reports
    (a module shadowing the standard library or pytest on an import root, a start-up hook,
    a pytest configuration file or ``conftest.py``). ``canaries`` adds a test file beside
    the task's tests, named like them, whose must-fail test carries the run's nonce.
    ``plan`` locks the bytecode cache of every test folder with a read-only
    ``__pycache__`` file. ``held_out`` writes the task's held-out tests and their canaries
    one test to a file, named like the canaries.
    """

    def __init__(self, name: str = "pytest") -> None:
        super().__init__(name)

    def plan(self, command: str, workspace: Path) -> CheckPlan:
        """Plan as JUnit does, and lock the bytecode caches beside the tests and canaries."""
        plan = super().plan(command, workspace)
        locked = (*plan.locked, *lock_bytecode_caches(workspace))
        return CheckPlan(plan.command, plan.evidence_paths, locked)

    def refusals(self, task: Task, workspace: Path, changed: Sequence[str]) -> list[str]:
        """One line per changed file that would change how pytest runs or reports."""
        return python_refusals(task.files, changed)

    def canaries(self, task: Task, workspace: Path, nonce: str) -> Canaries | None:
        """A ``test_<word>.py`` in the task's test folder, collected with the task's tests
        (no command-line arguments: explicit paths would replace ``testpaths``)."""
        folder = folder_of_tests(list(task.files))
        taken = {*task.files, *_listing(workspace, folder)}
        return pytest_canary(folder, taken, nonce)

    def held_out(self, task: Task, workspace: Path, nonce: str) -> HeldOutRun | None:
        """One file per held-out test and canary, in the folder its path names, every file,
        class and test named at random like the canaries (``held_out.py``)."""
        if task.held_out is None:
            return None
        sources = {**task.held_out.tests, **task.held_out.canaries}
        folders = {path.rpartition("/")[0] for path in sources}
        taken = {*task.files, *(p for f in folders for p in _listing(workspace, f))}
        return held_out_run(task.held_out.tests, task.held_out.canaries, taken)
