"""The ``pytest`` check runner: JUnit evidence, refusals of runner-changing files, canaries."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from garuda_evals.checks.base import Canaries
from garuda_evals.checks.junit import JUnitCheckRunner
from garuda_evals.models.task import Task
from garuda_evals_python.canary_text import pytest_canary
from garuda_evals_python.refusals import python_refusals

DEFAULT_TEST_FOLDER = "tests"


def _is_test_module(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return name.startswith("test_") and name.endswith(".py")


def folder_of_tests(files: Sequence[str]) -> str:
    """The folder holding most of a task's ``test_*.py`` files (``tests`` when it has none)."""
    folders = Counter(path.rpartition("/")[0] for path in files if _is_test_module(path))
    if not folders:
        return DEFAULT_TEST_FOLDER
    return sorted(folders.items(), key=lambda item: (-item[1], item[0]))[0][0]


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
    """

    def __init__(self, name: str = "pytest") -> None:
        super().__init__(name)

    def refusals(self, task: Task, workspace: Path, changed: Sequence[str]) -> list[str]:
        """One line per changed file that would change how pytest runs or reports."""
        return python_refusals(task.files, changed)

    def canaries(self, task: Task, workspace: Path, nonce: str) -> Canaries | None:
        """A ``test_<word>.py`` in the task's test folder, collected with the task's tests
        (no command-line arguments: explicit paths would replace ``testpaths``)."""
        folder = folder_of_tests(list(task.files))
        taken = {*task.files, *_listing(workspace, folder)}
        canary = pytest_canary(folder, taken, nonce)
        return Canaries(
            files={canary.path: canary.text}, must_fail=canary.must_fail, must_pass=canary.must_pass
        )
