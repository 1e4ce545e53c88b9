"""Judge one workspace: protected files unchanged, check exits 0, and tests really ran."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from garuda_evals.checks.base import CheckRunner
from garuda_evals.checks.protected import changes, snapshot
from garuda_evals.executors.base import Executor
from garuda_evals.models.result import CheckOutcome
from garuda_evals.models.task import Task

OUTPUT_TAIL_CHARS = 2000


@dataclass(frozen=True)
class Verdict:
    """Pass or fail, with the reason for a failure."""

    passed: bool
    reason: str | None
    check: CheckOutcome | None
    protected_changes: list[str] = field(default_factory=list)


def _tail(text: str) -> str:
    return text[-OUTPUT_TAIL_CHARS:]


async def judge(
    task: Task,
    workspace: Path,
    *,
    before: dict[str, str],
    executor: Executor,
    runner: CheckRunner,
    env: Mapping[str, str],
    timeout_s: float | None = None,
) -> Verdict:
    """Compare the protected snapshot, then run the check and read the runner's evidence.

    A changed protected file fails without running the check (the check would run the
    agent's version of the tests).
    """
    changed = changes(before, snapshot(workspace, task.protected))
    if changed:
        return Verdict(False, f"protected files changed: {', '.join(changed)}", None, changed)
    plan = runner.plan(task.check.command, workspace)
    limit = timeout_s if timeout_s is not None else task.check.timeout_s
    result = await executor.run(plan.command, cwd=workspace, env=env, timeout_s=limit)
    evidence = runner.evidence(plan, workspace, result)
    outcome = CheckOutcome(
        command=plan.command,
        exit_code=result.exit_code,
        timed_out=result.timed_out,
        duration_ms=result.duration_ms,
        tests_ran=evidence.tests_ran,
        tests_failed=evidence.failed,
        evidence=evidence.detail,
        output_tail=_tail(result.output),
    )
    if result.timed_out:
        return Verdict(False, f"check timed out after {limit:.0f} s", outcome)
    if result.exit_code != 0:
        summary = runner.failure_summary(result)[:200]
        return Verdict(False, f"check exited {result.exit_code}: {summary}", outcome)
    if evidence.tests_ran is None:
        return Verdict(
            False, f"check exited 0 but no evidence that tests ran ({evidence.detail})", outcome
        )
    if evidence.tests_ran < 1:
        return Verdict(False, f"check exited 0 but no test ran ({evidence.detail})", outcome)
    if evidence.failed:
        return Verdict(
            False, f"check exited 0 but the runner reports failures ({evidence.detail})", outcome
        )
    return Verdict(True, None, outcome)
