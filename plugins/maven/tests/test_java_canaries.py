"""The JUnit canaries: a test class in the package of the task's tests, read as Surefire
reports it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from garuda_evals.checks.junit import read_junit
from garuda_evals.environment import check_environment
from garuda_evals.suites.base import write_files
from garuda_evals.suites.folder import FolderSuite
from garuda_evals.toolchains import ToolchainStatus
from garuda_evals_java.checks import REPORT_DIR, SurefireCheckRunner, package_of_tests

NONCE = "c4n4ry-9a1b-20de"


def _task(java_suite: FolderSuite, task_id: str = "paginator-boundary"):  # type: ignore[no-untyped-def]
    return next(task for task in java_suite.tasks() if task.id == task_id)


def test_canary_class_sits_in_the_package_of_the_tests(
    java_suite: FolderSuite, tmp_path: Path
) -> None:
    for task in java_suite.tasks():
        canaries = SurefireCheckRunner().canaries(task, tmp_path, NONCE)
        assert canaries is not None and canaries.args == ()
        [(path, text)] = canaries.files.items()
        folder, package = package_of_tests(task)
        assert folder.startswith("src/test/java/com/example/") and package.startswith("com.")
        name = re.fullmatch(rf"{re.escape(folder)}/([A-Z][a-z]+Test)\.java", path)
        assert name, path
        assert path not in task.files and f"package {package};" in text
        assert canaries.must_fail.startswith(f"{package}.{name.group(1)}::")
        assert canaries.must_pass.startswith(f"{package}.{name.group(1)}::")
        assert NONCE in text and "canary" not in text.lower()


def test_surefire_reports_the_canaries_as_the_judge_reads_them(
    java_suite: FolderSuite, maven: ToolchainStatus, tmp_path: Path
) -> None:
    task = _task(java_suite)
    write_files(tmp_path, task.files)
    write_files(tmp_path, dict(task.solution.files))  # type: ignore[union-attr]
    canaries = SurefireCheckRunner().canaries(task, tmp_path, NONCE)
    assert canaries is not None
    write_files(tmp_path, dict(canaries.files))

    done = subprocess.run(
        "mvn -B -q -o test", shell=True, cwd=tmp_path, env=check_environment(),
        capture_output=True, text=True, check=False,
    )  # fmt: skip

    assert done.returncode != 0
    cases = {case.id: case for case in read_junit((tmp_path / REPORT_DIR,)).cases}
    assert cases[canaries.must_fail].outcome == "failed"
    assert NONCE in cases[canaries.must_fail].message
    assert cases[canaries.must_pass].outcome == "passed"
    assert sum(case.outcome == "passed" for case in cases.values()) == len(cases) - 1
