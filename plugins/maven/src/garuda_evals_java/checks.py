"""The ``surefire`` check runner: Surefire's JUnit XML reports are the evidence."""

from __future__ import annotations

import os
import secrets
import shlex
import shutil
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from garuda_evals.api import (
    Canaries,
    CheckPlan,
    CommandResult,
    HeldOutRun,
    JUnitCheckRunner,
    Task,
)
from garuda_evals_java.canary_text import junit_canary
from garuda_evals_java.refusals import java_refusals, source_package
from garuda_evals_java.summary import maven_failure

BUILD_DIR = "target"
REPORT_DIR = f"{BUILD_DIR}/surefire-reports"
MAVEN_CONFIG_DIR = ".mvn"
TEST_SOURCES = "src/test/java"


def maven_config_above(workspace: Path) -> Path | None:
    """A ``.mvn`` folder in a folder above ``workspace``, which Maven would read, or None.

    Maven's launcher takes the nearest folder upwards that holds ``.mvn`` as the project's
    base, and reads ``.mvn/maven.config`` (``-Dtest=...``, ``-DskipTests``) from there.
    """
    for folder in workspace.resolve().parents:
        if (folder / MAVEN_CONFIG_DIR).is_dir():
            return folder / MAVEN_CONFIG_DIR
    return None


def package_of_tests(task: Task) -> tuple[str, str]:
    """The folder and package of most of the task's test classes (``*Test.java`` under
    ``src/test/java``); the default package at the test root when there are none."""
    found: Counter[tuple[str, str]] = Counter()
    for path, text in task.files.items():
        if path.startswith(f"{TEST_SOURCES}/") and path.endswith("Test.java"):
            found[(path.rpartition("/")[0], source_package(text))] += 1
    if not found:
        return TEST_SOURCES, ""
    return sorted(found.items(), key=lambda item: (-item[1], item[0]))[0][0]


def _listing(workspace: Path, folder: str) -> list[str]:
    try:
        return [f"{folder}/{name}" for name in os.listdir(workspace / folder)]
    except OSError:
        return []


class SurefireCheckRunner(JUnitCheckRunner):
    """Reads ``target/surefire-reports``, after removing all of ``target/`` before the check.

    The compiler plugin skips sources older than their class files, so a test class the
    agent compiled from an edited test (and then restored the source) would run in place
    of the real one. Removing the build output makes every check compile from the
    sources that the protected-file snapshot vouches for. The check also refuses to run
    when a ``.mvn`` folder above the workspace would configure Maven.

    ``refusals`` names agent-changed files that would change how JUnit runs or reports
    (JUnit packages, service registrations, platform properties); ``canaries`` adds a test
    class beside the task's tests whose must-fail test carries the run's nonce;
    ``held_out`` writes the task's held-out tests and their canaries one test to a class,
    named like the canaries.
    """

    def __init__(self, name: str = "surefire") -> None:
        super().__init__(name, report_dir=REPORT_DIR)

    def plan(self, command: str, workspace: Path) -> CheckPlan:
        """Remove the build output (stale reports included), then plan as JUnit does."""
        shutil.rmtree(workspace / BUILD_DIR, ignore_errors=True)
        plan = super().plan(command, workspace)
        above = maven_config_above(workspace)
        if above is None:
            return plan
        refusal = f"refused: {above} would configure Maven for this check; remove it"
        return CheckPlan(f"echo {shlex.quote(refusal)} >&2; exit 1", plan.evidence_paths)

    def refusals(self, task: Task, workspace: Path, changed: Sequence[str]) -> list[str]:
        """One line per changed file in a JUnit package, ``META-INF/services``,
        ``junit-platform.properties``, ``.mvn``, or a source declaring a JUnit package."""
        return java_refusals(workspace, changed)

    def canaries(self, task: Task, workspace: Path, nonce: str) -> Canaries | None:
        """A JUnit 5 class ``<Word>Test`` in the package (and folder) of most of the task's
        test classes, which Surefire runs with them (its default includes ``**/*Test.java``)."""
        folder, package = package_of_tests(task)
        taken = {*task.files, *_listing(workspace, folder)}
        return junit_canary(folder, package, taken, nonce)

    def held_out(self, task: Task, workspace: Path, nonce: str) -> HeldOutRun | None:
        """One class per held-out test and canary, in the folder and package of its source,
        every class and method named as the canaries are (``held_out.py``), from ``nonce``
        and a secret of this call: the nonce is in the canary's text, where code under test
        can read it, and names drawn from it alone could be drawn again there to tell the
        held-out tests from their canaries."""
        from garuda_evals_java.held_out import held_out_run

        if task.held_out is None:
            return None
        sources = {**task.held_out.tests, **task.held_out.canaries}
        folders = {path.rpartition("/")[0] for path in sources}
        taken = {*task.files, *(path for folder in folders for path in _listing(workspace, folder))}
        seed = f"held-out {nonce} {secrets.token_hex(16)}"
        return held_out_run(task.held_out.tests, task.held_out.canaries, taken, seed)

    def failure_summary(self, result: CommandResult) -> str:
        """The compiler's first error, else Surefire's count of failures and the first one."""
        return maven_failure(result.output)
