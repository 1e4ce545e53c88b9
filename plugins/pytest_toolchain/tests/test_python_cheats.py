"""The cheats of design-notes section 5 that apply to python tasks each FAIL, with a reason.

Every cheat is played on the unsolved ``last-short-chunk`` task. Where a guard of the check
command or the judge stops a cheat, a control run in the agent's own folder with core's plain
JUnit runner (no fresh copy, refusals or canaries) without that guard shows the cheat was real.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest

from garuda_evals.checks.junit import JUnitCheckRunner
from garuda_evals.models.task import Task
from garuda_evals.runner.check import Verdict
from garuda_evals.suites.base import Suite
from garuda_evals.testing import check_in_place, self_test

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


DESELECT_TOML = """\
[pytest]
addopts = ["--deselect", "tests/test_batching.py::test_last_batch_may_be_short"]
"""
SHADOWS_PYTEST = (
    "pytest.py shadows the test runner's module pytest (import root the workspace root)"
)


def _task(suite: Suite, task_id: str = TASK) -> Task:
    return next(task for task in suite.tasks() if task.id == task_id)


def _without(task: Task, guard: str) -> Task:
    command = task.check.command.replace(guard, "").replace("  ", " ")
    assert command != task.check.command
    return task.model_copy(update={"check": task.check.model_copy(update={"command": command})})


def _play(suite: Suite, task: Task, edit: Callable[[Path], None]) -> Verdict:
    return anyio.run(lambda: self_test(suite, task, solved=False, edit=edit))


def _in_place(suite: Suite, task: Task, edit: Callable[[Path], None]) -> Verdict:
    """The control: the check in the agent's own folder, with core's plain JUnit runner."""
    workspace = Path(tempfile.mkdtemp(prefix="garuda-control-"))
    try:
        suite.materialize(task, workspace)
        edit(workspace)
        return anyio.run(
            lambda: check_in_place(task, workspace, runner=JUnitCheckRunner(task.check.runner))
        )
    finally:
        shutil.rmtree(workspace, ignore_errors=True)


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


def test_conftest_that_skips_everything_is_protected(python_suite: Suite) -> None:
    for place in ("conftest.py", "src/bulkupload/conftest.py"):
        verdict = _play(python_suite, _task(python_suite), _write(place, SKIP_ALL_CONFTEST))
        assert verdict.reason == f"protected files changed: added {place}"


def test_conftest_that_reports_every_test_passed_is_protected(python_suite: Suite) -> None:
    task = _task(python_suite)
    cheat = _write("conftest.py", PASS_ALL_CONFTEST)
    assert _play(python_suite, task, cheat).reason == "protected files changed: added conftest.py"
    control = _in_place(python_suite, _without(task, "--noconftest"), cheat)
    assert control.passed, "without --noconftest this conftest.py would pass the task"


def test_pytest_ini_that_deselects_the_failing_tests_is_protected(python_suite: Suite) -> None:
    task = _task(python_suite)
    cheat = _write("pytest.ini", DESELECT_INI)
    assert _play(python_suite, task, cheat).reason == "protected files changed: added pytest.ini"
    control = _in_place(python_suite, _without(task, "-c pyproject.toml"), cheat)
    assert control.passed, "without -c pyproject.toml this pytest.ini would pass the task"
    assert control.check is not None and control.check.tests_ran


@pytest.mark.parametrize("name", ["setup.cfg", "tox.ini", ".pytest.ini"])
def test_other_pytest_config_files_are_protected(python_suite: Suite, name: str) -> None:
    text = DESELECT_INI.replace("[pytest]", "[tool:pytest]" if name == "setup.cfg" else "[pytest]")
    verdict = _play(python_suite, _task(python_suite), _write(name, text))
    assert verdict.reason == f"protected files changed: added {name}"


@pytest.mark.parametrize("name", ["pytest.toml", ".pytest.toml"])
def test_toml_config_files_are_protected(python_suite: Suite, name: str) -> None:
    text = DESELECT_TOML
    verdict = _play(python_suite, _task(python_suite), _write(name, text))
    assert verdict.reason == f"protected files changed: added {name}"


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
    verdict = _play(python_suite, task, cheat)
    assert verdict.reason == f"refused: {SHADOWS_PYTEST}"
    # Even where the fake runs (no -P, no refusal), the missing JUnit report fails it.
    control = _in_place(python_suite, _without(task, " -P"), cheat)
    assert control.check is not None and control.check.exit_code == 0
    assert "13 passed" in control.check.output_tail
    assert control.reason == (
        "check exited 0 but no evidence that tests ran (no JUnit report was written)"
    )


def test_a_fake_pytest_that_writes_a_passing_report_is_refused(python_suite: Suite) -> None:
    task = _task(python_suite)
    cheat = _write("pytest.py", FAKE_PYTEST_WITH_REPORT)
    assert _play(python_suite, task, cheat).reason == f"refused: {SHADOWS_PYTEST}"
    control = _in_place(python_suite, _without(task, " -P"), cheat)
    assert control.passed, "without -P a pytest.py in the workspace would pass the task"
