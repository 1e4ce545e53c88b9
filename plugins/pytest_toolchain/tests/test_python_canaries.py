"""The pytest canaries: named like the task's tests, and reported as the judge expects."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from garuda_evals.checks.junit import read_junit
from garuda_evals.environment import check_environment
from garuda_evals.suites.base import Suite, write_files
from garuda_evals_python.runner import PytestCheckRunner, folder_of_tests

NONCE = "c4n4ry-5e3d-77f1"


def _task(python_suite: Suite, task_id: str = "last-short-chunk"):  # type: ignore[no-untyped-def]
    return next(task for task in python_suite.tasks() if task.id == task_id)


def test_canary_is_a_test_file_among_the_tasks_tests(python_suite: Suite, tmp_path: Path) -> None:
    task = _task(python_suite)
    write_files(tmp_path, task.files)
    canaries = PytestCheckRunner().canaries(task, tmp_path, NONCE)

    assert canaries is not None and canaries.args == ()
    [(path, text)] = canaries.files.items()
    assert re.fullmatch(r"tests/test_[a-z]+\.py", path), path
    assert path not in task.files
    module = path.removesuffix(".py").replace("/", ".")
    assert re.fullmatch(rf"{re.escape(module)}::test_[a-z]+_[a-z]+", canaries.must_fail)
    assert re.fullmatch(rf"{re.escape(module)}::test_[a-z]+_[a-z]+", canaries.must_pass)
    assert canaries.must_fail != canaries.must_pass
    assert NONCE in text and "canary" not in text.lower()


def test_names_vary_with_the_nonce(python_suite: Suite, tmp_path: Path) -> None:
    task = _task(python_suite)
    runner = PytestCheckRunner()
    names = {next(iter(runner.canaries(task, tmp_path, f"n{i}").files)) for i in range(20)}  # type: ignore[union-attr]
    assert len(names) >= 8


def test_an_existing_file_is_never_overwritten(python_suite: Suite, tmp_path: Path) -> None:
    task = _task(python_suite)
    runner = PytestCheckRunner()
    first = next(iter(runner.canaries(task, tmp_path, NONCE).files))  # type: ignore[union-attr]
    (tmp_path / first).parent.mkdir(parents=True)
    (tmp_path / first).write_text("", encoding="utf-8")
    again = next(iter(runner.canaries(task, tmp_path, NONCE).files))  # type: ignore[union-attr]
    assert again != first


def test_the_folder_of_most_test_files_is_chosen() -> None:
    assert (
        folder_of_tests(["src/a.py", "tests/test_a.py", "tests/test_b.py", "t/test_c.py"])
        == "tests"
    )
    assert folder_of_tests(["checks/test_a.py"]) == "checks"
    assert folder_of_tests(["src/a.py"]) == "tests"


def test_real_pytest_reports_the_canaries_as_the_judge_reads_them(
    python_suite: Suite, tmp_path: Path
) -> None:
    task = _task(python_suite)
    write_files(tmp_path, task.files)
    canaries = PytestCheckRunner().canaries(task, tmp_path, NONCE)
    assert canaries is not None
    write_files(tmp_path, dict(canaries.files))
    report = tmp_path / "report.xml"
    command = task.check.command.replace("{junit}", str(report))

    subprocess.run(command, shell=True, cwd=tmp_path, env=check_environment(), check=False)

    cases = {case.id: case for case in read_junit((report,)).cases}
    assert cases[canaries.must_fail].outcome == "failed"
    assert NONCE in cases[canaries.must_fail].message
    assert cases[canaries.must_pass].outcome == "passed"
    assert "tests.test_batching::test_exact_multiple" in cases
