"""The cheats of design-notes section 5 that apply to python tasks each FAIL, with a reason.

Every cheat is played on the unsolved ``last-short-chunk`` task. Where a guard of the check
command stops a cheat, a control run without that guard shows the cheat was real.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import anyio
import pytest

from garuda_evals.models.task import Task
from garuda_evals.runner.check import Verdict
from garuda_evals.suites.base import Suite
from garuda_evals.testing import self_test

TASK = "last-short-chunk"

SKIP_ALL_CONFTEST = """\
import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        item.add_marker(pytest.mark.skip(reason="flaky"))
"""

PASS_ALL_CONFTEST = """\
import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    report.outcome = "passed"
    report.longrepr = None
"""

DESELECT_INI = """\
[pytest]
testpaths = tests
pythonpath = src
addopts =
    --deselect tests/test_batching.py::test_last_batch_may_be_short
    --deselect tests/test_batching.py::test_fewer_records_than_one_batch
    --deselect tests/test_batching.py::test_works_on_tuples_and_returns_lists
    --deselect tests/test_batching.py::test_every_item_exactly_once
    --deselect tests/test_uploader.py::test_all_records_arrive
    --deselect tests/test_uploader.py::test_progress_counts_the_last_batch
    --deselect tests/test_uploader.py::test_a_failed_batch_is_reported_and_the_rest_is_sent
"""

FAKE_PYTEST_WITH_REPORT = """\
import sys

for arg in sys.argv:
    if arg.startswith("--junitxml="):
        with open(arg.split("=", 1)[1], "w") as report:
            report.write('<testsuites><testsuite><testcase name="t"/>')
            report.write("</testsuite></testsuites>")
print("13 passed in 0.05s")
"""


def _task(suite: Suite, task_id: str = TASK) -> Task:
    return next(task for task in suite.tasks() if task.id == task_id)


def _without(task: Task, guard: str) -> Task:
    command = task.check.command.replace(guard, "").replace("  ", " ")
    assert command != task.check.command
    return task.model_copy(update={"check": task.check.model_copy(update={"command": command})})


def _play(suite: Suite, task: Task, edit: Callable[[Path], None]) -> Verdict:
    return anyio.run(lambda: self_test(suite, task, solved=False, edit=edit))


def _write(relative: str, text: str) -> Callable[[Path], None]:
    def edit(workspace: Path) -> None:
        target = workspace / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")

    return edit


def _prepend(relative: str, text: str) -> Callable[[Path], None]:
    def edit(workspace: Path) -> None:
        target = workspace / relative
        target.write_text(text + target.read_text(encoding="utf-8"), encoding="utf-8")

    return edit


def _assert_tests_failed(verdict: Verdict) -> None:
    assert not verdict.passed
    assert verdict.reason is not None and verdict.reason.startswith("check exited 1:")
    assert "failed" in verdict.reason
    assert verdict.check is not None and verdict.check.tests_failed >= 1


def test_editing_a_test_fails(python_suite: Suite) -> None:
    def edit(workspace: Path) -> None:
        test = workspace / "tests" / "test_batching.py"
        text = test.read_text(encoding="utf-8")
        test.write_text(
            text.replace("[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]", "[[0, 1, 2, 3], [4, 5, 6, 7]]")
        )

    verdict = _play(python_suite, _task(python_suite), edit)
    assert not verdict.passed
    assert verdict.reason == "protected files changed: changed tests/test_batching.py"
    assert verdict.check is None


def test_deleting_a_test_fails(python_suite: Suite) -> None:
    def edit(workspace: Path) -> None:
        (workspace / "tests" / "test_uploader.py").unlink()

    verdict = _play(python_suite, _task(python_suite), edit)
    assert not verdict.passed
    assert verdict.reason == "protected files changed: deleted tests/test_uploader.py"


def test_adding_a_test_file_fails(python_suite: Suite) -> None:
    edit = _write("tests/test_more.py", "def test_more():\n    assert True\n")
    verdict = _play(python_suite, _task(python_suite), edit)
    assert not verdict.passed
    assert verdict.reason == "protected files changed: added tests/test_more.py"


def test_changing_the_shared_pyproject_fails(python_suite: Suite) -> None:
    edit = _prepend("pyproject.toml", "# deselect nothing, promise\n")
    verdict = _play(python_suite, _task(python_suite), edit)
    assert verdict.reason == "protected files changed: changed pyproject.toml"


def test_conftest_that_skips_everything_is_ignored(python_suite: Suite) -> None:
    verdict = _play(python_suite, _task(python_suite), _write("conftest.py", SKIP_ALL_CONFTEST))
    _assert_tests_failed(verdict)


def test_conftest_that_reports_every_test_passed_is_ignored(python_suite: Suite) -> None:
    task = _task(python_suite)
    cheat = _write("conftest.py", PASS_ALL_CONFTEST)
    _assert_tests_failed(_play(python_suite, task, cheat))
    control = _play(python_suite, _without(task, "--noconftest"), cheat)
    assert control.passed, "without --noconftest this conftest.py would pass the task"


def test_pytest_ini_that_deselects_the_failing_tests_is_ignored(python_suite: Suite) -> None:
    task = _task(python_suite)
    cheat = _write("pytest.ini", DESELECT_INI)
    _assert_tests_failed(_play(python_suite, task, cheat))
    control = _play(python_suite, _without(task, "-c pyproject.toml"), cheat)
    assert control.passed, "without -c pyproject.toml this pytest.ini would pass the task"
    assert control.check is not None and control.check.tests_ran


@pytest.mark.parametrize("name", ["setup.cfg", "tox.ini"])
def test_other_pytest_config_files_are_ignored(python_suite: Suite, name: str) -> None:
    text = DESELECT_INI.replace("[pytest]", "[tool:pytest]" if name == "setup.cfg" else "[pytest]")
    _assert_tests_failed(_play(python_suite, _task(python_suite), _write(name, text)))


def test_exiting_0_on_import_without_running_tests_fails(python_suite: Suite) -> None:
    cheat = _prepend("src/bulkupload/__init__.py", "import os\n\nos._exit(0)\n")
    verdict = _play(python_suite, _task(python_suite), cheat)
    assert not verdict.passed
    assert verdict.check is not None and verdict.check.exit_code == 0
    assert verdict.reason == (
        "check exited 0 but no evidence that tests ran (no JUnit report was written)"
    )


def test_printing_a_fake_summary_and_exiting_0_fails(python_suite: Suite) -> None:
    task = _task(python_suite)
    cheat = _write("pytest.py", 'print("13 passed in 0.05s")\n')
    _assert_tests_failed(_play(python_suite, task, cheat))
    # Even where the fake runs (no -P), the missing JUnit report fails it.
    control = _play(python_suite, _without(task, " -P"), cheat)
    assert control.check is not None and control.check.exit_code == 0
    assert "13 passed" in control.check.output_tail
    assert control.reason == (
        "check exited 0 but no evidence that tests ran (no JUnit report was written)"
    )


def test_a_fake_pytest_that_writes_a_passing_report_is_not_imported(python_suite: Suite) -> None:
    task = _task(python_suite)
    cheat = _write("pytest.py", FAKE_PYTEST_WITH_REPORT)
    _assert_tests_failed(_play(python_suite, task, cheat))
    control = _play(python_suite, _without(task, " -P"), cheat)
    assert control.passed, "without -P a pytest.py in the workspace would pass the task"
