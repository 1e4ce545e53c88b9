"""The code under test comes from the task's folder, not from the project's editable install.

A src-layout project with no ``pythonpath`` in its pytest configuration, installed editable
(``pip install -e .``) into its own ``.venv`` as a user would: without the package roots put
first, every import of the package reads the user's checkout, HEAD's code, in the proof, in
the check and in the agent's commands.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest

from garuda_evals.testing import play, self_test
from garuda_evals_repo_git.suite import load_repo_suite

PYPROJECT = """[project]
name = "stock"
version = "0.1.0"

[build-system]
requires = ["uv_build>=0.8,<0.14"]
build-backend = "uv_build"
"""
COUNT = "def count(items):\n    return len(items)\n"
COUNT_NONE = "def count(items):\n    return 0 if items is None else len(items)\n"
RESTOCK = "\n\ndef restock(have, more):\n    return have + more\n"
TEST_COUNT = "from stock import count\n\n\ndef test_count():\n    assert count([1, 2]) == 2\n"
TEST_COUNT_NONE = "\n\ndef test_count_none():\n    assert count(None) == 0\n"
TEST_RESTOCK = """import unittest

from stock import restock


class RestockTest(unittest.TestCase):
    def test_restock(self):
        self.assertEqual(restock(3, 2), 5)
"""
INIT = "src/stock/__init__.py"


@pytest.fixture(scope="module")
def stock(tmp_path_factory: pytest.TempPathFactory, repo_kit: Any) -> SimpleNamespace:
    """The project, its history, its editable install, mined with the detected command."""
    base = tmp_path_factory.mktemp("stock")
    repo = repo_kit.GitRepo(base / "stock")
    repo.commit(
        "Start stock",
        {
            ".gitignore": ".venv\n__pycache__/\n",
            "pyproject.toml": PYPROJECT,
            INIT: COUNT,
            "tests/test_count.py": TEST_COUNT,
        },
    )
    restock = repo.commit(
        "Add restock", {INIT: COUNT + RESTOCK, "tests/test_restock.py": TEST_RESTOCK}
    )
    count_none = repo.commit(
        "Count nothing as zero",
        {INIT: COUNT_NONE + RESTOCK, "tests/test_count.py": TEST_COUNT + TEST_COUNT_NONE},
    )
    python = repo_kit.editable_venv(repo.root, base / "uv-cache")
    mined = repo_kit.mine(repo, {}, repo.root)
    return SimpleNamespace(
        repo=repo, python=python, mined=mined, restock=restock, count_none=count_none
    )


def test_the_editable_install_reads_the_users_checkout(stock: SimpleNamespace) -> None:
    """Control: outside the task's folder, ``import stock`` is HEAD's code in the checkout."""
    where = subprocess.run(
        [str(stock.python), "-c", "import stock; print(stock.__file__)"],
        cwd=stock.repo.root.parent,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(where) == stock.repo.root / INIT


def test_both_commits_are_mined(stock: SimpleNamespace) -> None:
    """pytest-style and unittest-style tests alike: each fails at the parent, passes after."""
    output = stock.mined.output
    assert stock.mined.code == 0, output
    assert "Kept 2 task(s)" in output, output
    assert "already pass at the parent" not in output, output
    assert "imported from the task's folder: src" in output, output
    suite = load_repo_suite(stock.repo.root)
    tasks = {t.metadata["commit"]: t for t in suite.tasks()}
    assert set(tasks) == {stock.restock, stock.count_none}
    restock = tasks[stock.restock]
    assert "-o \"pythonpath='$PWD/src'\"" in restock.check.command
    assert any("RestockTest" in test for test in restock.expected_tests), restock.expected_tests


def test_the_oracle_passes_and_noop_fails(stock: SimpleNamespace) -> None:
    suite = load_repo_suite(stock.repo.root)
    for task in suite.tasks():
        solved = anyio.run(lambda task=task: self_test(suite, task, solved=True))
        assert solved.passed, (task.id, solved.reason)
        unsolved = anyio.run(lambda task=task: self_test(suite, task, solved=False))
        assert not unsolved.passed, task.id


WHERE = (
    '.venv/bin/python -c "import os, stock; '
    'raise SystemExit(0 if stock.__file__.startswith(os.getcwd()) else 3)"'
)


def test_the_agents_commands_import_the_task_folders_code(stock: SimpleNamespace) -> None:
    """An agent that fixes the code only when ``import stock`` reads its own folder passes."""
    fix = f"cat > {INIT} <<'EOF'\n{COUNT_NONE}{RESTOCK}EOF"
    played = play(
        "repo",
        stock.count_none[:10],
        f"{WHERE} && {fix}",
        cwd=stock.repo.root,
        executor="host",
    )
    assert played.status == "PASS", (played.failure, played.stderr[-1500:])


SHADOW = """import os, sys
for arg in sys.argv:
    if arg.startswith("--junitxml="):
        with open(arg.split("=", 1)[1], "w") as report:
            report.write("<testsuite/>")
os._exit(0)
"""


@pytest.mark.parametrize("path", ["src/difflib.py", "src/pluggy.py", "src/sitecustomize.py"])
def test_a_module_on_the_package_roots_that_shadows_the_runners(
    stock: SimpleNamespace, path: str
) -> None:
    """``src`` is first on sys.path in the check: a module named like one pytest imports is
    refused (difflib is imported on the first failed comparison)."""
    suite = load_repo_suite(stock.repo.root)
    task = next(t for t in suite.tasks() if t.metadata["commit"] == stock.count_none)

    def plant(workspace: Path) -> None:
        (workspace / path).write_text(SHADOW)

    verdict = anyio.run(lambda: self_test(suite, task, solved=True, edit=plant))
    assert not verdict.passed
    assert path in (verdict.reason or ""), verdict.reason
