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

from garuda_evals.checks.base import Canaries, CheckPlan, CheckRunner, HeldOutRun, TestEvidence
from garuda_evals.checks.protected import ProtectedPatterns, changes, digest, snapshot
from garuda_evals.executors.base import CommandResult, Executor, ExecutorBackend, SandboxPolicy
from garuda_evals.judging.change import Change, apply_change
from garuda_evals.judging.files import has_linked_parent
from garuda_evals.judging.lint import lint
from garuda_evals.judging.shown import shown_evidence
from garuda_evals.judging.verdict import rule
from garuda_evals.models.result import CheckOutcome
from garuda_evals.models.task import Task
from garuda_evals.removal import remove_soon
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

    @property
    def held_out(self) -> dict[str, str]:
        """The task's name of each held-out test -> its outcome (``missing``: not reported)."""
        return self.check.held_out if self.check else {}

    @property
    def held_out_canaries(self) -> dict[str, str]:
        """The task's name of each canary shaped like the held-out tests -> its outcome."""
        return self.check.held_out_canaries if self.check else {}


@dataclass(frozen=True)
class Judge:
    """What judging needs besides the task: how to make the check's executor, and the runner."""

    suite: Suite
    backend: ExecutorBackend
    base_policy: Callable[[Path], SandboxPolicy]
    runner: CheckRunner
    env: Mapping[str, str]
    timeout_s: float | None = None


def strict(verdict: Verdict) -> Verdict:
    """``--strict``: a PASS whose change the tamper lint marked is a FAIL, naming the first
    line it marked."""
    if not (verdict.passed and verdict.suspicious):
        return verdict
    reason = f"suspicious under --strict: {verdict.suspicious[0]}"
    return replace(verdict, passed=False, reason=reason)


def _tail(text: str) -> str:
    return text[-OUTPUT_TAIL_CHARS:]


def check_outcome(
    plan: CheckPlan,
    result: CommandResult,
    evidence: TestEvidence,
    canaries: Canaries | None = None,
    held_out: HeldOutRun | None = None,
) -> CheckOutcome:
    """What report.json records of a check: the command, its exit, the runner's counts of
    the task's own tests (the ``canaries`` named apart, never counted), and the outcome of
    each held-out test and canary shaped like them, by the task's names."""
    shown = shown_evidence(evidence, canaries, held_out)
    outcomes = {case.id: case.outcome for case in evidence.cases}
    return CheckOutcome(
        command=plan.command,
        exit_code=result.exit_code,
        timed_out=result.timed_out,
        duration_ms=result.duration_ms,
        tests_ran=shown.tests_ran,
        tests_failed=shown.tests_failed,
        evidence=shown.detail,
        output_tail=_tail(result.output),
        held_out=_outcomes(held_out.must_pass, outcomes) if held_out else {},
        held_out_canaries=_outcomes(held_out.must_fail, outcomes) if held_out else {},
    )


def write_canaries(workspace: Path, files: Mapping[str, str]) -> list[Path]:
    """Write the judge's own test files (canaries, held-out tests) inside ``workspace``,
    never through a link."""
    written: list[Path] = []
    for relative, text in files.items():
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


def fill_canaries(
    command: str, canaries: Canaries | None, held_out: HeldOutRun | None = None
) -> str:
    """``{canaries}`` becomes the quoted paths of the judge's own tests (canaries, then
    held-out tests; nothing without them)."""
    paths = [*(canaries.args if canaries else ()), *(held_out.args if held_out else ())]
    return command.replace(CANARIES_PLACEHOLDER, " ".join(shlex.quote(arg) for arg in paths))


def held_out_tests(task: Task, runner: CheckRunner, folder: Path, nonce: str) -> HeldOutRun | None:
    """The task's held-out tests as ``runner`` names them for this run (None: the task has
    none); a runner that cannot run them is an error naming it."""
    if task.held_out is None or not (task.held_out.tests or task.held_out.canaries):
        return None
    held = runner.held_out(task, folder, nonce)
    if held is None:
        raise ValueError(f"task {task.id}: check runner {runner.name!r} cannot run held-out tests")
    return held


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
    held_out: HeldOutRun | None
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
        locked += write_canaries(folder, canaries.files)
    held_out = held_out_tests(task, judge.runner, folder, nonce)
    if held_out is not None:
        written = write_canaries(folder, held_out.files)
        locked += written
        reference = _with_own_writes(reference, folder, written, task.protected)
    plan = judge.runner.plan(fill_canaries(task.check.command, canaries, held_out), folder)
    locked += plan.locked
    make_read_only(locked)
    return _Prepared(reference, change, suspicious, canaries, held_out, plan, locked)


def _with_own_writes(
    reference: dict[str, str], folder: Path, written: list[Path], protected: list[str]
) -> dict[str, str]:
    """The protected snapshot with the judge's own writes in it: a held-out test written
    over a shipped test file (an imported benchmark's test patch changes existing tests) is
    what the check must leave as it is, not a change made during the check."""
    matcher = ProtectedPatterns(protected)
    own = {path.relative_to(folder).as_posix(): path for path in written}
    return {
        **reference,
        **{rel: digest(path, path.lstat().st_mode) for rel, path in own.items() if rel in matcher},
    }


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
    outcome = check_outcome(plan, result, evidence, canaries, ready.held_out)
    ruling = rule(
        result,
        evidence,
        runner=judge.runner,
        limit_s=limit,
        canaries=canaries,
        nonce=nonce,
        expected=task.expected_tests,
        held_out=ready.held_out,
    )
    reason: str | None = ruling.reason
    after = changes(ready.reference, snapshot(folder, task.protected))
    during = [line for line in after if not line.startswith("added ")]
    if during:
        reason = f"tests changed during the check: {', '.join(during)}"
    planted = {canaries.must_fail, canaries.must_pass} if canaries else set()
    if ready.held_out is not None:
        planted |= {*ready.held_out.must_pass, *ready.held_out.must_fail}
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


def _outcomes(names: Mapping[str, str], outcomes: Mapping[str, str]) -> dict[str, str]:
    """The task's name of each test -> its outcome in this run (``missing``: not reported)."""
    return {name: outcomes.get(test, "missing") for test, name in names.items()}


def _release(task: Task, folder: Path, judge: Judge) -> None:
    judge.runner.forget(folder)
    judge.suite.release(task, folder)
    remove_soon(folder)  # remove_tree: the check may have left folders read-only


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
