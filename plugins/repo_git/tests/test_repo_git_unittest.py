"""``python -m unittest`` gets its evidence for free: a result hook inside the run writes JUnit.

A src-layout project installed editable into its own ``.venv``, tested with unittest classes
and the command a user would give (``python -m unittest discover``). The counts come from the
runner's result object: neither the exit code nor a printed line can stand in for a test.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest

from garuda_evals.api import read_junit
from garuda_evals.testing import self_test
from garuda_evals_repo_git.runners import REPORT
from garuda_evals_repo_git.suite import load_repo_suite
from garuda_evals_repo_git.tasks import to_task
from garuda_evals_repo_git.unittest_report import SAFE_START, hook_source, refreshed
from garuda_evals_repo_git.unittest_report import command as unittest_command

PYPROJECT = """[project]
name = "stock"
version = "0.1.0"

[build-system]
requires = ["uv_build>=0.8,<0.14"]
build-backend = "uv_build"
"""
INIT = "src/stock/__init__.py"
COUNT = "def count(items):\n    return len(items)\n"
RESTOCK = "\n\ndef restock(have, more):\n    return have + more\n"
COUNT_NONE = "def count(items):\n    return 0 if items is None else len(items)\n"
CASE = """import unittest

from stock import {name}


class {cls}(unittest.TestCase):
    def test_{name}(self):
        self.assertEqual({call}, {expected})
"""
COMMAND = ".venv/bin/python -m unittest discover -s tests -t ."
# What the agent's code prints before leaving with exit 0: unittest's own success lines.
FAKE_OK = (
    'print("test_restock (tests.test_restock.RestockTest.test_restock) ... ok")\n'
    'print("ok 1 - restock")\nprint("Ran 1 test in 0.001s")\nprint("OK")\n'
    "import os\nos._exit(0)\n"
)


@pytest.fixture(scope="module")
def stock(tmp_path_factory: pytest.TempPathFactory, repo_kit: Any) -> SimpleNamespace:
    """The project, two fixes with unittest tests, its editable install, mined once."""
    base = tmp_path_factory.mktemp("unittest")
    repo = repo_kit.GitRepo(base / "stock")
    repo.commit(
        "Start stock",
        {
            ".gitignore": ".venv\n__pycache__/\n",
            "pyproject.toml": PYPROJECT,
            INIT: COUNT,
            "tests/__init__.py": "",
            "tests/test_count.py": CASE.format(
                name="count", cls="CountTest", call="count([1, 2])", expected=2
            ),
        },
    )
    restock = repo.commit(
        "Add restock",
        {
            INIT: COUNT + RESTOCK,
            "tests/test_restock.py": CASE.format(
                name="restock", cls="RestockTest", call="restock(3, 2)", expected=5
            ),
        },
    )
    count_none = repo.commit(
        "Count nothing as zero",
        {
            INIT: COUNT_NONE + RESTOCK,
            "tests/test_count.py": CASE.format(
                name="count", cls="CountTest", call="count(None)", expected=0
            ),
        },
    )
    python = repo_kit.editable_venv(repo.root, base / "uv-cache")
    mined = repo_kit.mine(repo, {}, repo.root, test_command=COMMAND, mutants=0)
    return SimpleNamespace(
        repo=repo, python=python, mined=mined, restock=restock, count_none=count_none
    )


def _task(stock: SimpleNamespace, sha: str) -> Any:
    suite = load_repo_suite(stock.repo.root)
    return suite, next(t for t in suite.tasks() if t.metadata["commit"] == sha)


def test_both_unittest_commits_are_mined(stock: SimpleNamespace) -> None:
    output = stock.mined.output
    assert stock.mined.code == 0, output
    assert "Kept 2 task(s)" in output, output
    _, restock = _task(stock, stock.restock)
    assert restock.check.runner == "repo-unittest"
    assert restock.expected_tests == ["tests.test_restock.RestockTest::test_restock"]
    assert "Probe at HEAD" in output and "0 test(s) found" not in output, output


def test_the_oracle_passes_and_noop_fails(stock: SimpleNamespace) -> None:
    suite = load_repo_suite(stock.repo.root)
    for task in suite.tasks():
        solved = anyio.run(lambda task=task: self_test(suite, task, solved=True))
        assert solved.passed, (task.id, solved.reason)
        unsolved = anyio.run(lambda task=task: self_test(suite, task, solved=False))
        assert not unsolved.passed, task.id


def _plant(text: str) -> Any:
    def plant(workspace: Path) -> None:
        (workspace / INIT).write_text(text)

    return plant


def test_a_fake_ok_and_exit_0_does_not_pass(stock: SimpleNamespace) -> None:
    """The agent's code prints unittest's success lines and leaves with exit 0 on import."""
    suite, task = _task(stock, stock.restock)
    verdict = anyio.run(lambda: self_test(suite, task, solved=True, edit=_plant(FAKE_OK)))
    assert not verdict.passed
    assert "no evidence that tests ran" in (verdict.reason or ""), verdict.reason


def test_control_plain_unittest_is_fooled_by_the_fake(stock: SimpleNamespace) -> None:
    """Control: judged by its exit code and output, plain unittest would pass the fake."""
    folder = stock.repo.root.parent / "fake-control"
    subprocess.run(["git", "clone", "-q", str(stock.repo.root), str(folder)], check=True)
    (folder / INIT).write_text(FAKE_OK)
    plain = subprocess.run(
        [str(stock.python), "-m", "unittest", "tests/test_restock.py"],
        cwd=folder,
        env={**os.environ, "PYTHONPATH": "src"},  # the clone's code, not the editable HEAD
        capture_output=True,
        text=True,
    )
    assert plain.returncode == 0 and "OK" in plain.stdout, plain.stdout + plain.stderr
    assert "Ran 1 test" in plain.stdout


def test_zero_tests_with_exit_0_is_counted_as_zero(stock: SimpleNamespace, tmp_path: Path) -> None:
    """A test file with no test: the runner exits 0 and the report says 0 ran (the judge's
    "no test ran"); plain unittest also exits 0 on Python 3.11 (the control)."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_nothing.py").write_text('print("ok 1 - nothing")\n')
    # The working folder is not on sys.path while the hook imports its own modules.
    (tmp_path / "unittest.py").write_text("import os\nos._exit(0)\n")
    report = tmp_path / "report.xml"
    run = unittest_command(str(stock.python), ("src",), REPORT, "tests/test_nothing.py")
    done = subprocess.run(
        ["/bin/bash", "-c", run.replace(REPORT, str(report))],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert read_junit((report,)).tests_ran == 0
    plain = subprocess.run(
        [str(stock.python), "-m", "unittest", "tests/test_nothing.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert plain.returncode in (0, 5), plain.stderr  # 5 from Python 3.12 on


def test_the_check_without_canaries_rejects_zero_tests(stock: SimpleNamespace) -> None:
    """The agent empties the package and the task's test cannot import: the hook reports
    the import error as a failed test, never as zero tests passed."""
    suite, task = _task(stock, stock.restock)
    verdict = anyio.run(lambda: self_test(suite, task, solved=True, edit=_plant("")))
    assert not verdict.passed
    assert "failed" in (verdict.reason or ""), verdict.reason


def test_a_module_on_the_roots_that_shadows_the_stdlib_is_refused(stock: SimpleNamespace) -> None:
    suite, task = _task(stock, stock.count_none)

    def plant(workspace: Path) -> None:
        (workspace / "src" / "difflib.py").write_text("import os\nos._exit(0)\n")

    verdict = anyio.run(lambda: self_test(suite, task, solved=True, edit=plant))
    assert not verdict.passed
    assert "src/difflib.py" in (verdict.reason or ""), verdict.reason


SHADOW = """import unittest


class RestockTest(unittest.TestCase):
    def test_restock(self):
        pass
"""


def test_a_package_named_like_the_tasks_test_module_is_not_run(stock: SimpleNamespace) -> None:
    """Cheat: ``tests/test_restock/__init__.py`` beside ``tests/test_restock.py``. The hook
    imports test files by their dotted name, and a package outranks a module of that name:
    its always-passing ``RestockTest.test_restock`` would stand in for the task's test."""
    suite, task = _task(stock, stock.restock)

    def plant(workspace: Path) -> None:
        (workspace / "tests" / "test_restock").mkdir()
        (workspace / "tests" / "test_restock" / "__init__.py").write_text(SHADOW)

    verdict = anyio.run(lambda: self_test(suite, task, solved=False, edit=plant))
    assert not verdict.passed, verdict.check


def test_a_saved_check_gets_the_current_hook(stock: SimpleNamespace) -> None:
    """A suite built before a fix to the hook runs the fixed hook, its files kept."""
    current = unittest_command(".venv/bin/python", ("src",), REPORT, "tests/test_a.py {canaries}")
    old = current.replace(shlex.quote(hook_source()), shlex.quote(f"{SAFE_START}\nold = 1"))
    assert old != current and refreshed(old) == current
    assert refreshed("pytest tests/test_a.py") == "pytest tests/test_a.py"
    suite = load_repo_suite(stock.repo.root)
    saved = suite.saved.tasks[0]
    built_before = saved.model_copy(update={"check_command": refreshed(saved.check_command)})
    built_before.check_command = built_before.check_command.replace(
        shlex.quote(hook_source()), shlex.quote(f"{SAFE_START}\nold = 1")
    )
    task = to_task(stock.repo.root, built_before, "repo")
    assert shlex.quote(hook_source()) in task.check.command
