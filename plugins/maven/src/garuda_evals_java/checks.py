"""The ``surefire`` check runner: Surefire's JUnit XML reports are the evidence."""

from __future__ import annotations

import shutil
from pathlib import Path

from garuda_evals.checks.base import CheckPlan
from garuda_evals.checks.junit import JUnitCheckRunner
from garuda_evals.executors.base import CommandResult
from garuda_evals_java.summary import maven_failure

BUILD_DIR = "target"
REPORT_DIR = f"{BUILD_DIR}/surefire-reports"


class SurefireCheckRunner(JUnitCheckRunner):
    """Reads ``target/surefire-reports``, after removing all of ``target/`` before the check.

    The compiler plugin skips sources older than their class files, so a test class the
    agent compiled from an edited test (and then restored the source) would run in place
    of the real one. Removing the build output makes every check compile from the
    sources that the protected-file snapshot vouches for.
    """

    def __init__(self, name: str = "surefire") -> None:
        super().__init__(name, report_dir=REPORT_DIR)

    def plan(self, command: str, workspace: Path) -> CheckPlan:
        """Remove the build output (stale reports included), then plan as JUnit does."""
        shutil.rmtree(workspace / BUILD_DIR, ignore_errors=True)
        return super().plan(command, workspace)

    def failure_summary(self, result: CommandResult) -> str:
        """Surefire's count of failures and the first one, or the compiler's first error."""
        return maven_failure(result.output)
