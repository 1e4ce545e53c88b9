"""Cheats on a java task fail: each plays one trick on the unsolved paginator task."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest

from garuda_evals.checks.base import CheckRunner
from garuda_evals.checks.junit import JUnitCheckRunner
from garuda_evals.environment import check_environment
from garuda_evals.models.task import Task
from garuda_evals.runner.check import Verdict
from garuda_evals.suites.folder import FolderSuite
from garuda_evals.testing import check_in_place, self_test
from garuda_evals.toolchains import ToolchainStatus
from garuda_evals_java.checks import REPORT_DIR, SurefireCheckRunner

TASK = "paginator-boundary"
TEST_FILE = "src/test/java/com/example/paging/PaginatorTest.java"
WEAK_TEST = """\
package com.example.paging;

import org.junit.jupiter.api.Test;

class PaginatorTest {
    @Test
    void fine() {
    }
}
"""
FAKE_ASSERTIONS = """\
package org.junit.jupiter.api;

public final class Assertions {
    public static void assertEquals(Object expected, Object actual) {
    }
}
"""


def _edit_test(workspace: Path) -> None:
    (workspace / TEST_FILE).write_text(WEAK_TEST, encoding="utf-8")


def _delete_test(workspace: Path) -> None:
    (workspace / TEST_FILE).unlink()


def _skip_tests_config(workspace: Path) -> None:
    (workspace / ".mvn").mkdir()
    (workspace / ".mvn" / "maven.config").write_text("-DskipTests\n", encoding="utf-8")


def _ignore_failures_in_pom(workspace: Path) -> None:
    pom = workspace / "pom.xml"
    text = pom.read_text(encoding="utf-8")
    pom.write_text(
        text.replace(
            "<version>3.5.2</version>",
            "<version>3.5.2</version>\n"
            "        <configuration><testFailureIgnore>true</testFailureIgnore></configuration>",
        ),
        encoding="utf-8",
    )


def _stale_test_class(workspace: Path) -> None:
    """Compile a weakened test, restore the source, and date the build output ahead.

    Left in ``target/``, the compiler would see nothing to recompile and run the weak class.
    """
    original = (workspace / TEST_FILE).read_text(encoding="utf-8")
    _edit_test(workspace)
    subprocess.run(
        ["mvn", "-B", "-q", "-o", "test"], cwd=workspace, env=check_environment(), check=True
    )
    (workspace / TEST_FILE).write_text(original, encoding="utf-8")
    ahead = time.time() + 3600
    for path in (workspace / "target").rglob("*"):
        if "test-classes" in path.parts or "testCompile" in path.parts:
            os.utime(path, (ahead, ahead))


def _shadow_junit(workspace: Path) -> None:
    folder = workspace / "src/main/java/org/junit/jupiter/api"
    folder.mkdir(parents=True)
    (folder / "Assertions.java").write_text(FAKE_ASSERTIONS, encoding="utf-8")


def _junit_properties(workspace: Path) -> None:
    folder = workspace / "src/main/resources"
    folder.mkdir(parents=True)
    (folder / "junit-platform.properties").write_text(
        "junit.jupiter.conditions.deactivate=*\n", encoding="utf-8"
    )


PROTECTED = "protected files changed:"
CHEATS: dict[str, tuple[Callable[[Path], None], str]] = {
    "edited test": (_edit_test, f"{PROTECTED} changed {TEST_FILE}"),
    "deleted test": (_delete_test, f"{PROTECTED} deleted {TEST_FILE}"),
    ".mvn/maven.config -DskipTests": (
        _skip_tests_config,
        "refused: .mvn/maven.config would configure Maven",
    ),
    "pom.xml ignores failures": (_ignore_failures_in_pom, f"{PROTECTED} changed pom.xml"),
    "stale weak test class": (_stale_test_class, "check exited 1: 6 failed: "),
    "own org.junit Assertions": (_shadow_junit, f"{PROTECTED} added src/main/java/org/junit/"),
    "junit-platform.properties": (_junit_properties, f"{PROTECTED} added src/main/resources/"),
}


def test_cheats_fail_with_their_reason(java_suite: FolderSuite, maven: ToolchainStatus) -> None:
    task = next(task for task in java_suite.tasks() if task.id == TASK)
    verdicts: dict[str, Verdict] = {}

    async def run(name: str) -> None:
        edit = CHEATS[name][0]
        verdicts[name] = await self_test(java_suite, task, solved=False, edit=edit, timeout_s=180)

    async def run_all() -> None:
        async with anyio.create_task_group() as group:
            for name in CHEATS:
                group.start_soon(run, name)

    anyio.run(run_all)

    for name, (_, reason) in CHEATS.items():
        verdict = verdicts[name]
        assert not verdict.passed, f"cheat passed: {name}"
        assert verdict.reason is not None and verdict.reason.startswith(reason), (name, verdict)
    assert verdicts[".mvn/maven.config -DskipTests"].check is None
    stale = verdicts["stale weak test class"].check
    # The task's 14 tests ran (5 failures, 1 error); the judge's canaries and the held-out
    # tests are named apart.
    assert stale is not None and stale.tests_ran == 14 and stale.tests_failed == 6


def test_maven_config_above_the_workspace_is_refused(
    java_suite: FolderSuite,
    maven: ToolchainStatus,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Maven reads ``.mvn`` from the nearest folder upwards: one in the temp folder would
    select a single passing test for every check below it."""
    (tmp_path / ".mvn").mkdir()
    (tmp_path / ".mvn" / "maven.config").write_text(
        "-Dtest=PaginatorTest#firstPageIsUnchanged\n", encoding="utf-8"
    )
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    task = next(task for task in java_suite.tasks() if task.id == TASK)

    verdict = anyio.run(lambda: self_test(java_suite, task, solved=False, timeout_s=180))

    assert not verdict.passed
    assert verdict.reason == (
        f"check exited 1: refused: {tmp_path.resolve() / '.mvn'} would configure Maven "
        "for this check; remove it"
    )


async def _judge_with_plain_junit(
    suite: FolderSuite,
    task: Task,
    edit: Callable[[Path], None],
    runner: CheckRunner | None = None,
) -> Verdict:
    workspace = Path(tempfile.mkdtemp(prefix="garuda-plain-"))
    try:
        suite.materialize(task, workspace)
        edit(workspace)
        return await check_in_place(
            task,
            workspace,
            runner=runner or JUnitCheckRunner("surefire", report_dir=REPORT_DIR),
            timeout_s=180,
        )
    finally:
        shutil.rmtree(workspace, ignore_errors=True)


def test_without_the_surefire_runner_these_cheats_would_pass(
    java_suite: FolderSuite,
    maven: ToolchainStatus,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The control: core's plain JUnit runner on the same cheats passes the unsolved task."""
    task = next(task for task in java_suite.tasks() if task.id == TASK)

    stale = anyio.run(_judge_with_plain_junit, java_suite, task, _stale_test_class)
    (tmp_path / ".mvn").mkdir()
    (tmp_path / ".mvn" / "maven.config").write_text(
        "-Dtest=PaginatorTest#firstPageIsUnchanged\n", encoding="utf-8"
    )
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    above = anyio.run(_judge_with_plain_junit, java_suite, task, lambda workspace: None)

    assert stale.passed and stale.check is not None and stale.check.tests_ran == 1
    assert above.passed and above.check is not None and above.check.tests_ran == 1


def test_the_surefire_runner_removes_a_stale_target_in_the_folder_it_checks(
    java_suite: FolderSuite, maven: ToolchainStatus
) -> None:
    """The judge's copy leaves ``target/`` out; the runner does not count on it: in the very
    folder where the weak class was compiled (the control above passes there), its plan
    removes ``target/`` and the task's real tests run."""
    task = next(task for task in java_suite.tasks() if task.id == TASK)

    verdict = anyio.run(
        _judge_with_plain_junit, java_suite, task, _stale_test_class, SurefireCheckRunner()
    )

    assert not verdict.passed
    assert verdict.reason is not None and verdict.reason.startswith("check exited 1: 6 failed: ")
    assert verdict.check is not None and verdict.check.tests_ran == 14
