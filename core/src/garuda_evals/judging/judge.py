"""Judge one agent's folder in a fresh copy of its task.

The copy is made from the task's own definition; only the agent's changed regular files
outside the protected set are carried in. Protected and canary files are read-only during
the check, the check runs through a fresh executor, and the protected files are compared
again after it.
"""

from __future__ import annotations

import secrets
import shlex
import stat
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

import anyio

from garuda_evals.checks.base import Canaries, CheckPlan, CheckRunner, TestEvidence
from garuda_evals.checks.protected import changes, snapshot
from garuda_evals.executors.base import CommandResult, Executor, ExecutorBackend, SandboxPolicy
from garuda_evals.judging.change import Change, apply_change
from garuda_evals.judging.files import has_linked_parent
from garuda_evals.judging.lint import lint
from garuda_evals.judging.shown import shown_evidence
from garuda_evals.judging.verdict import rule
from garuda_evals.models.result import CheckOutcome
from garuda_evals.models.task import Task
from garuda_evals.removal import remove_tree
from garuda_evals.suites.base import Suite

OUTPUT_TAIL_CHARS = 2000
CANARIES_PLACEHOLDER = "{canaries}"


@dataclass(frozen=True)
class Verdict:
    """Pass or fail, with the reason for a failure and what the judge noticed."""

    passed: bool
    reason: str | None
    check: CheckOutcome | None
    protected_changes: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    suspicious: list[str] = field(default_factory=list)
    passed_tests: list[str] = field(default_factory=list)
    """Ids of the task's tests (canaries left out) that passed: what pinning records."""


@dataclass(frozen=True)
class Judge:
    """What judging needs besides the task: how to make the check's executor, and the runner."""

    suite: Suite
    backend: ExecutorBackend
    base_policy: Callable[[Path], SandboxPolicy]
    runner: CheckRunner
    env: Mapping[str, str]
    timeout_s: float | None = None


def _tail(text: str) -> str:
    return text[-OUTPUT_TAIL_CHARS:]


def check_outcome(
    plan: CheckPlan,
    result: CommandResult,
    evidence: TestEvidence,
    canaries: Canaries | None = None,
) -> CheckOutcome:
    """What report.json records of a check: the command, its exit, the runner's counts of
    the task's own tests (the ``canaries`` named apart, never counted)."""
    shown = shown_evidence(evidence, canaries)
    return CheckOutcome(
        command=plan.command,
        exit_code=result.exit_code,
        timed_out=result.timed_out,
        duration_ms=result.duration_ms,
        tests_ran=shown.tests_ran,
        tests_failed=shown.tests_failed,
        evidence=shown.detail,
        output_tail=_tail(result.output),
    )


def write_canaries(workspace: Path, canaries: Canaries) -> list[Path]:
    """Write the canary files (inside ``workspace``, never through a link)."""
    written: list[Path] = []
    for relative, text in canaries.files.items():
        target = workspace / relative
        if relative.startswith("/") or ".." in relative.split("/"):
            raise ValueError(f"canary path {relative!r} leaves the workspace")
        if has_linked_parent(workspace, relative) or target.is_symlink():
            raise ValueError(f"canary path {relative!r} goes through a link")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written


def make_read_only(paths: list[Path]) -> None:
    """Clear the write bits of regular files (the sandbox also mounts them read-only)."""
    for path in paths:
        info = path.lstat()
        if stat.S_ISREG(info.st_mode):
            path.chmod(stat.S_IMODE(info.st_mode) & ~0o222)


def fill_canaries(command: str, canaries: Canaries | None) -> str:
    """``{canaries}`` becomes the quoted canary paths (nothing without canaries)."""
    args = " ".join(shlex.quote(arg) for arg in canaries.args) if canaries else ""
    return command.replace(CANARIES_PLACEHOLDER, args)


def _fail_before_check(change: Change, reason: str, suspicious: list[str]) -> Verdict:
    return Verdict(
        False, reason, None, change.protected, left_out=change.left_out, suspicious=suspicious
    )


@dataclass(frozen=True)
class _Prepared:
    """A judge's folder ready for the check: what to compare and what to run."""

    reference: dict[str, str]
    change: Change
    suspicious: list[str]
    canaries: Canaries | None
    plan: CheckPlan
    locked: list[Path]


def _prepare(
    task: Task, agent_workspace: Path, folder: Path, judge: Judge, nonce: str
) -> _Prepared | Verdict:
    """Build the copy, carry the change in, lock what the check must not change; a Verdict
    when the change fails before any check runs."""
    judge.suite.materialize(task, folder)
    reference = snapshot(folder, task.protected)
    change = apply_change(agent_workspace, folder, task.protected)
    suspicious = lint(folder, change.copied)
    if change.protected:
        changed = f"protected files changed: {', '.join(change.protected)}"
        return _fail_before_check(change, changed, suspicious)
    refused = judge.runner.refusals(task, folder, change.copied)
    if refused:
        return _fail_before_check(change, f"refused: {'; '.join(refused[:3])}", suspicious)
    canaries = judge.runner.canaries(task, folder, nonce)
    locked = [folder / relative for relative in reference]
    if canaries is not None:
        locked += write_canaries(folder, canaries)
    plan = judge.runner.plan(fill_canaries(task.check.command, canaries), folder)
    locked += plan.locked
    make_read_only(locked)
    return _Prepared(reference, change, suspicious, canaries, plan, locked)


def _evidence(
    runner: CheckRunner, plan: CheckPlan, folder: Path, result: CommandResult
) -> TestEvidence:
    """The runner's reading of the check's report. Code under test can write that report:
    one the runner cannot read is no evidence (a FAIL), never an error of the harness."""
    try:
        return runner.evidence(plan, folder, result)
    except Exception as error:
        detail = f"the check's report could not be read: {type(error).__name__}: {error}"
        return TestEvidence(tests_ran=None, detail=detail[:500])


def _conclude(
    task: Task,
    folder: Path,
    judge: Judge,
    ready: _Prepared,
    result: CommandResult,
    limit: float,
    nonce: str,
) -> Verdict:
    """The verdict from the check's result, its evidence and the protected files after it."""
    canaries, plan = ready.canaries, ready.plan
    evidence = _evidence(judge.runner, plan, folder, result)
    outcome = check_outcome(plan, result, evidence, canaries)
    ruling = rule(
        result,
        evidence,
        runner=judge.runner,
        limit_s=limit,
        canaries=canaries,
        nonce=nonce,
        expected=task.expected_tests,
    )
    reason: str | None = ruling.reason
    after = changes(ready.reference, snapshot(folder, task.protected))
    during = [line for line in after if not line.startswith("added ")]
    if during:
        reason = f"tests changed during the check: {', '.join(during)}"
    planted = {canaries.must_fail, canaries.must_pass} if canaries else set()
    return Verdict(
        ruling.passed and not during,
        reason,
        outcome,
        left_out=ready.change.left_out,
        suspicious=ready.suspicious,
        passed_tests=[
            case.id
            for case in evidence.cases
            if case.outcome == "passed" and case.id not in planted
        ],
    )


def _release(task: Task, folder: Path, judge: Judge) -> None:
    judge.runner.forget(folder)
    judge.suite.release(task, folder)
    remove_tree(folder)  # the check may have left folders read-only


async def judge_in_copy(task: Task, agent_workspace: Path, judge: Judge) -> Verdict:
    """Build a fresh copy of ``task``, carry the agent's change in, run the check there.

    The file work before and after the check (copying, hashing, parsing the evidence,
    removing the copy) runs in a worker thread, so other ``--parallel`` slots go on meanwhile.
    """
    folder = Path(tempfile.mkdtemp(prefix=f"garuda-judge-{task.id}-"))
    nonce = secrets.token_hex(8)
    executor: Executor | None = None
    try:
        ready = await anyio.to_thread.run_sync(
            _prepare, task, agent_workspace, folder, judge, nonce
        )
        if isinstance(ready, Verdict):
            return ready
        policy = judge.suite.policy(task, judge.base_policy(folder))
        policy = replace(policy, read_only=(*policy.read_only, *ready.locked))
        executor = judge.backend.create(policy)
        limit = judge.timeout_s if judge.timeout_s is not None else task.check.timeout_s
        result = await executor.run(ready.plan.command, cwd=folder, env=judge.env, timeout_s=limit)
        return await anyio.to_thread.run_sync(
            _conclude, task, folder, judge, ready, result, limit, nonce
        )
    finally:
        with anyio.CancelScope(shield=True):
            if executor is not None:
                await executor.aclose()
            await anyio.to_thread.run_sync(_release, task, folder, judge)
