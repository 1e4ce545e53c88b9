"""The repo suite's check runners: the known runners' reports, with canaries per run."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from garuda_evals.api import (
    Canaries,
    CheckPlan,
    CommandResult,
    GoTestCheckRunner,
    HeldOutRun,
    JUnitCheckRunner,
    Task,
    TestEvidence,
    report_files,
    summarize,
)
from garuda_evals_repo_git.canaries import BUILDERS
from garuda_evals_repo_git.pyheldout import pytest_held_out
from garuda_evals_repo_git.pyrefusals import shadow_refusals
from garuda_evals_repo_git.reports import JestJsonCheckRunner, junit_cases

NAMES = {
    "pytest": "repo-pytest",
    "node": "repo-node-test",
    "vitest": "repo-vitest",
    "jest": "repo-jest-json",
    "mocha": "repo-mocha",
    "unittest": "repo-unittest",
    "borp": "repo-borp",
    "tap": "repo-tap",
}


class RepoJUnitCheckRunner(JUnitCheckRunner):
    """A runner writing JUnit XML (pytest, unittest's hook, node --test, vitest, borp, tap), with canaries of that runner (and pytest's held-out tests)."""

    def __init__(self, kind: str) -> None:
        super().__init__(NAMES[kind])
        self.kind = kind

    def canaries(self, task: Task, workspace: Path, nonce: str) -> Canaries | None:
        """Two tests beside the task's own: one must pass, one must fail with ``nonce``."""
        return BUILDERS[self.kind](task, workspace, nonce)

    def held_out(self, task: Task, workspace: Path, nonce: str) -> HeldOutRun | None:
        """pytest: each held-out test and canary a file of its own beside the file it came
        from, every file, class and test named at random (``pyheldout``)."""
        if self.kind != "pytest":
            return None
        return pytest_held_out(task, workspace, nonce)

    def evidence(self, plan: CheckPlan, workspace: Path, result: CommandResult) -> TestEvidence:
        """The report's test cases, without what the runner reports that is not a test."""
        files = report_files(plan.evidence_paths)
        if not files:
            return TestEvidence(tests_ran=None, detail="no JUnit report was written")
        cases = junit_cases(self.kind, files)
        if isinstance(cases, str):
            return TestEvidence(tests_ran=None, detail=cases)
        return summarize(cases)

    def refusals(self, task: Task, workspace: Path, changed: Sequence[str]) -> list[str]:
        """Python: agent modules on the check's package roots that shadow the runner's."""
        if self.kind not in ("pytest", "unittest"):
            return []
        return shadow_refusals(task.check.command, changed)


class RepoJestCheckRunner(JestJsonCheckRunner):
    """Jest's JSON report, with Jest canaries."""

    def canaries(self, task: Task, workspace: Path, nonce: str) -> Canaries | None:
        """Two tests beside the task's own: one must pass, one must fail with ``nonce``."""
        return BUILDERS["jest"](task, workspace, nonce)


class RepoGoCheckRunner(GoTestCheckRunner):
    """``go test -json`` into ``{gojson}``, with a Go canary file beside the task's tests."""

    def __init__(self) -> None:
        super().__init__("repo-go-test")

    def canaries(self, task: Task, workspace: Path, nonce: str) -> Canaries | None:
        """Two tests beside the task's own: one must pass, one must fail with ``nonce``."""
        return BUILDERS["go"](task, workspace, nonce)
