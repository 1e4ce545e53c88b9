"""The ``surefire`` check runner: Surefire's JUnit XML reports are the evidence."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

from garuda_evals.checks.base import CheckPlan
from garuda_evals.checks.junit import JUnitCheckRunner
from garuda_evals.executors.base import CommandResult
from garuda_evals_java.summary import maven_failure

BUILD_DIR = "target"
REPORT_DIR = f"{BUILD_DIR}/surefire-reports"
MAVEN_CONFIG_DIR = ".mvn"


def maven_config_above(workspace: Path) -> Path | None:
    """A ``.mvn`` folder in a folder above ``workspace``, which Maven would read, or None.

    Maven's launcher takes the nearest folder upwards that holds ``.mvn`` as the project's
    base, and reads ``.mvn/maven.config`` (``-Dtest=...``, ``-DskipTests``) from there.
    """
    for folder in workspace.resolve().parents:
        if (folder / MAVEN_CONFIG_DIR).is_dir():
            return folder / MAVEN_CONFIG_DIR
    return None


class SurefireCheckRunner(JUnitCheckRunner):
    """Reads ``target/surefire-reports``, after removing all of ``target/`` before the check.

    The compiler plugin skips sources older than their class files, so a test class the
    agent compiled from an edited test (and then restored the source) would run in place
    of the real one. Removing the build output makes every check compile from the
    sources that the protected-file snapshot vouches for. The check also refuses to run
    when a ``.mvn`` folder above the workspace would configure Maven.
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

    def failure_summary(self, result: CommandResult) -> str:
        """Surefire's count of failures and the first one, or the compiler's first error."""
        return maven_failure(result.output)
