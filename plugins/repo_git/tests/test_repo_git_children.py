"""The Pythons a task's tests start import the task's code, and a kept task passes its check
where it will run.

A src-layout project installed editable (``pip install -e .``) into its own ``.venv``, whose
tests start ``sys.executable -c "import tally"`` and the project's console script: those
children get no ``-o pythonpath``, so without ``PYTHONPATH`` they import the editable install,
the user's checkout at HEAD (the answer) on the host, and nothing in the sandbox. Its last
commit's test writes to a fixed path outside the task's folder: it proves on the host and
fails in the OS sandbox, so mining drops it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest

from garuda_evals.api import choose_executor, get_registry
from garuda_evals.models.task import Task
from garuda_evals.testing import self_test
from garuda_evals_repo_git.refresh import refreshed_check
from garuda_evals_repo_git.runners import PYTEST_ENV, classify
from garuda_evals_repo_git.sandboxcheck import FAILS_SOLVED
from garuda_evals_repo_git.suite import load_repo_suite
from garuda_evals_repo_git.unittest_report import command as unittest_command

PYPROJECT = """[project]
name = "tally"
version = "0.1.0"

[project.scripts]
tally = "tally.cli:main"

[build-system]
requires = ["uv_build>=0.8,<0.14"]
build-backend = "uv_build"
"""
TOTAL = "def total(items):\n    return sum(items[1:])\n"
FIXED = "def total(items):\n    return sum(items)\n"
STAMP = '\n\ndef stamp():\n    return "tally"\n'
CLI = """import sys

from tally import total


def main():
    print(total([int(arg) for arg in sys.argv[1:]]))
"""
TEST_BASIC = "from tally import total\n\n\ndef test_empty():\n    assert total([]) == 0\n"
TEST_CHILD = """import subprocess
import sys
from pathlib import Path


def test_a_child_python_sums_every_item():
    code = "import tally; print(tally.total([1, 2, 3]))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "6", out.stderr


def test_the_console_script_sums_every_item():
    script = Path(sys.executable).parent / "tally"
    out = subprocess.run([str(script), "1", "2", "3"], capture_output=True, text=True)
    assert out.stdout.strip() == "6", out.stderr
"""
STAMP_PATH = "/var/tmp/garuda-tally-stamp.txt"
TEST_STAMP = f"""from pathlib import Path

from tally import stamp


def test_stamp_is_written():
    path = Path("{STAMP_PATH}")
    path.write_text(stamp())
    assert path.read_text() == "tally"
"""
INIT = "src/tally/__init__.py"


@pytest.fixture(scope="module")
def tally(repo_kit: Any) -> Iterator[SimpleNamespace]:
    """The project (outside /tmp, so the sandbox shows its ``.venv``), mined with the defaults."""
    try:
        with repo_kit.sandbox_folder("garuda-children-") as base:
            repo = repo_kit.GitRepo(base / "tally")
            repo.commit(
                "Start tally",
                {
                    ".gitignore": ".venv\n__pycache__/\n",
                    "pyproject.toml": PYPROJECT,
                    INIT: TOTAL,
                    "src/tally/cli.py": CLI,
                    "tests/test_basic.py": TEST_BASIC,
                },
            )
            summed = repo.commit(
                "Sum every item, the first too", {INIT: FIXED, "tests/test_child.py": TEST_CHILD}
            )
            stamped = repo.commit(
                "Write a stamp", {INIT: FIXED + STAMP, "tests/test_stamp.py": TEST_STAMP}
            )
            python = repo_kit.editable_venv(repo.root, base / "uv-cache")
            mined = repo_kit.mine(repo, {}, repo.root, mutants=0)
            yield SimpleNamespace(
                repo=repo, python=python, mined=mined, summed=summed, stamped=stamped
            )
    finally:
        Path(STAMP_PATH).unlink(missing_ok=True)


def _task(tally: SimpleNamespace) -> tuple[Any, Task]:
    suite = load_repo_suite(tally.repo.root)
    return suite, next(t for t in suite.tasks() if t.metadata["commit"] == tally.summed)


def _bwrap() -> Any:
    return choose_executor("os", get_registry()).backend


def test_the_child_task_is_kept_and_the_one_needing_the_host_dropped(
    tally: SimpleNamespace,
) -> None:
    output = tally.mined.output
    assert tally.mined.code == 0, output
    assert "already pass at the parent" not in output, output
    assert "Checking the 2 kept task(s) as -s repo runs them (bwrap)" in output, output
    dropped = f"{tally.stamped[:10]}: dropped: {FAILS_SOLVED}: "
    assert dropped in output and "test_stamp_is_written" in output, output
    assert re.search(rf"^\s+1\s+{FAILS_SOLVED}$", output, re.M), output
    assert "Kept 1 task(s)" in output, output
    suite = load_repo_suite(tally.repo.root)
    assert [t.metadata["commit"] for t in suite.tasks()] == [tally.summed]
    _, task = _task(tally)
    assert 'PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}"' in task.check.command
    for name in ("test_a_child_python_sums_every_item", "test_the_console_script_sums_every_item"):
        assert any(name in test for test in task.expected_tests), task.expected_tests


@pytest.mark.parametrize("where", ["host", "bwrap"])
def test_the_oracle_passes_and_noop_fails(tally: SimpleNamespace, where: str) -> None:
    """On the host, noop would PASS if the children read the checkout (HEAD, the answer)."""
    suite, task = _task(tally)
    backend = _bwrap() if where == "bwrap" else None
    solved = anyio.run(lambda: self_test(suite, task, solved=True, backend=backend))
    assert solved.passed, solved.reason
    unsolved = anyio.run(lambda: self_test(suite, task, solved=False, backend=backend))
    assert not unsolved.passed, unsolved.check


def _old(command: str) -> str:
    """The check as it was built before the children got the package roots."""
    command = re.sub(r'PYTHONPATH="\$PWD[^"]*" ', "", command, count=1)
    return command.replace("PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 ", f"{PYTEST_ENV} ", 1).replace(
        " -E -P -m pytest ", " -P -m pytest ", 1
    )


def test_control_with_the_old_check_the_children_read_heads_code(tally: SimpleNamespace) -> None:
    """Control: the check of before passes on the host without the fix (the children import
    the editable install, HEAD's code) and fails in the sandbox even with it."""
    suite, task = _task(tally)
    old = task.model_copy(
        update={"check": task.check.model_copy(update={"command": _old(task.check.command)})}
    )
    leaked = anyio.run(lambda: self_test(suite, old, solved=False))
    assert leaked.passed, leaked.check
    hidden = anyio.run(lambda: self_test(suite, old, solved=True, backend=_bwrap()))
    assert not hidden.passed
    assert "No module named 'tally'" in (hidden.check.output_tail if hidden.check else "")


def test_a_saved_check_of_before_is_brought_up_to_date() -> None:
    """Suites saved before this change get the children's PYTHONPATH and ``-E`` at load."""
    pytest_tc = classify(".venv/bin/python -m pytest", None)
    current = replace(pytest_tc, roots=("src", "."), plugins=("anyio",)).check(["t.py"])[0]
    assert refreshed_check(_old(current), "repo-pytest") == current
    assert refreshed_check(current, "repo-pytest") == current
    unit = unittest_command(".venv/bin/python", ("src",), "{junit}", "t.py {canaries}")
    old_unit = unit.replace(" -E -c ", " -c ", 1)
    new_unit = f'PYTHONPATH="$PWD/src${{PYTHONPATH:+:$PYTHONPATH}}" {unit}'
    assert refreshed_check(old_unit, "repo-unittest") == new_unit
    assert refreshed_check(new_unit, "repo-unittest") == new_unit
    assert refreshed_check("pytest t.py", "repo-node-test") == "pytest t.py"
