"""Run one task once: scratch folder, agent turn, judge in a fresh copy, result row."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import anyio

from garuda_evals.agents.base import BUDGET_STOP, Agent, AgentTurn, Progress
from garuda_evals.checks.base import CheckRunner
from garuda_evals.environment import ENV_ALLOW, check_environment
from garuda_evals.executors.base import Executor, ExecutorBackend, SandboxPolicy
from garuda_evals.models.events import EventKind
from garuda_evals.models.result import Status, TaskResult
from garuda_evals.models.settings import RunSettings
from garuda_evals.removal import remove_soon
from garuda_evals.runner.agent_paths import refuse_exposing, suite_hidden
from garuda_evals.runner.check import Judge, judge_in_copy, strict
from garuda_evals.runner.selection import Selected
from garuda_evals.runner.stored_change import ChangeError, ChangeRecorder, ChangeStore


@dataclass(frozen=True)
class Job:
    """One run of one task: the ``repeat``-th of its repeats."""

    index: int
    item: Selected
    repeat: int
    transcript: Path
    change: Path | None = None
    """Where the agent's final change is stored (None: not stored)."""


@dataclass(frozen=True)
class TaskContext:
    """What every job of a run shares."""

    settings: RunSettings
    agent: Agent
    backend: ExecutorBackend
    runners: dict[str, CheckRunner]
    emit: Callable[[EventKind, Job, str], None]
    hidden: tuple[Path, ...] = ()
    """Folders sandboxed commands must not read: the user's project (its history, earlier runs)."""
    task_timeout_s: float = 600.0
    """The agent's time per task: the user's, or the agent's own limit (a batch API's)."""
    changes: ChangeStore | None = None
    """Where runs keep their change snapshots together (None: each run its own git folder)."""


def _base_policy(workspace: Path, context: TaskContext) -> SandboxPolicy:
    return SandboxPolicy(
        workspace=workspace,
        hidden=context.hidden,
        env_allow=(*ENV_ALLOW, *context.settings.agent_env),
    )


def _elapsed_ms(since: float) -> int:
    return int((time.monotonic() - since) * 1000)


def _release(job: Job, workspace: Path, recorder: ChangeRecorder, keep: bool) -> None:
    recorder.close()
    job.item.suite.release(job.item.task, workspace)
    if not keep:
        remove_soon(workspace)


async def _cleanup(
    job: Job, workspace: Path, executor: Executor | None, keep: bool, recorder: ChangeRecorder
) -> None:
    with anyio.CancelScope(shield=True):
        if executor is not None:
            await executor.aclose()
        # file work in a worker thread: the other --parallel slots go on meanwhile
        await anyio.to_thread.run_sync(_release, job, workspace, recorder, keep)


def new_row(job: Job, workspace: Path | None = None) -> TaskResult:
    """The row of ``job`` before anything is known: ERR until the run says otherwise."""
    task = job.item.task
    return TaskResult(
        task=task.id,
        suite=task.suite,
        title=task.title,
        repeat=job.repeat,
        strength=task.strength,
        status=Status.ERR,
        transcript=str(job.transcript),
        workspace=str(workspace) if workspace is not None else None,
    )


def interrupted_row(job: Job, progress: Progress, duration_ms: int) -> TaskResult:
    """The row of a run stopped by Ctrl-C: what the agent had used until then, as its
    ``progress`` says (unknown when the agent reported nothing: never a known zero)."""
    row = new_row(job)
    row.status, row.stop_reason = Status.INTERRUPTED, "interrupted"
    row.failure = "interrupted before it finished (Ctrl-C)"
    row.steps, row.usage, row.duration_ms = progress.steps, progress.usage, duration_ms
    row.tool_calls = dict(progress.tool_calls)
    row.usage_by_model = dict(progress.usage_by_model)
    return row


async def _store_change(
    job: Job, recorder: ChangeRecorder, before: str | None, workspace: Path
) -> tuple[str | None, str | None]:
    """Write the agent's change next to the transcript: its path relative to the run folder,
    or a notice saying why it was not kept."""
    if job.change is None or before is None:
        return None, None
    try:
        after = await recorder.snapshot(workspace)
        patch = await recorder.diff(before, after, workspace)
    except (ChangeError, OSError, TimeoutError) as error:
        return None, f"the agent's change was not kept: {error}"
    job.change.parent.mkdir(parents=True, exist_ok=True)
    job.change.write_bytes(patch)
    return job.change.relative_to(job.transcript.parent).as_posix(), None


async def _past_the_limit(
    row: TaskResult,
    job: Job,
    recorder: ChangeRecorder,
    before: str | None,
    workspace: Path,
    context: TaskContext,
) -> TaskResult:
    """The row of a turn the task time limit ended: FAIL, not judged, its change kept."""
    row.status, row.stop_reason = Status.FAIL, "timeout"
    row.failure = f"the agent ran past the {context.task_timeout_s:.0f} s task limit"
    row.change, notice = await _store_change(job, recorder, before, workspace)
    row.notices += [notice] if notice else []
    return row


async def run_job(job: Job, context: TaskContext, progress: Progress | None = None) -> TaskResult:
    """Run the job. An exception in the harness or the agent is an ERR row, never a crash.

    ``progress`` is kept current with what the agent used, for the caller to report a
    run that Ctrl-C stops (see ``interrupted_row``).
    """
    task, suite, settings = job.item.task, job.item.suite, context.settings
    started = time.monotonic()
    workspace = Path(tempfile.mkdtemp(prefix=f"garuda-{task.id}-"))
    executor: Executor | None = None
    progress = progress if progress is not None else Progress()
    row = new_row(job, workspace if settings.keep else None)
    recorder = ChangeRecorder(context.changes)
    before: str | None = None
    turn_started = False
    try:
        await anyio.to_thread.run_sync(suite.materialize, task, workspace)
        try:
            before = await recorder.snapshot(workspace) if job.change is not None else None
        except (ChangeError, OSError, TimeoutError) as error:
            row.notices.append(f"the agent's change will not be kept: {error}")
        policy = suite.policy(task, _base_policy(workspace, context))
        read_only_paths = getattr(context.agent, "read_only_paths", None)
        extra = read_only_paths() if read_only_paths is not None else ()
        if extra:
            if context.backend.kind == "os":
                refuse_exposing(extra, suite_hidden(suite, task), context.hidden)
            policy = replace(policy, read_only=(*policy.read_only, *extra))
        executor = context.backend.create(policy)
        env = check_environment()
        turn = AgentTurn(
            task=task,
            prompt=task.prompt,
            workspace=workspace,
            executor=executor,
            env={**env, **suite.environment(task, workspace)},
            timeout_s=context.task_timeout_s,
            transcript=job.transcript,
            settings=settings,
            events=lambda kind, message: context.emit(kind, job, message),
            progress=progress,
        )
        context.emit("start", job, task.title)
        agent_started = time.monotonic()
        turn_started = True
        try:
            with anyio.fail_after(context.task_timeout_s) as limit:
                outcome = await context.agent.run(turn)
        except TimeoutError:
            row.steps, row.usage = progress.steps, progress.usage
            row.agent_duration_ms = _elapsed_ms(agent_started)
            return await _past_the_limit(row, job, recorder, before, workspace, context)
        # An agent that blocked, or swallowed its cancellation, returns past the limit: a
        # timeout all the same, whatever its folder holds.
        late = anyio.current_time() >= limit.deadline
        row.agent_duration_ms = _elapsed_ms(agent_started)
        row.steps, row.usage, row.stop_reason = outcome.steps, outcome.usage, outcome.stop_reason
        progress.steps, progress.usage = outcome.steps, outcome.usage
        row.notices = [*row.notices, *outcome.notices]
        row.tool_calls = dict(outcome.tool_calls or progress.tool_calls)
        row.usage_by_model = dict(outcome.usage_by_model or progress.usage_by_model)
        with anyio.CancelScope(shield=True):
            await executor.aclose()
        if late:
            return await _past_the_limit(row, job, recorder, before, workspace, context)
        row.change, notice = await _store_change(job, recorder, before, workspace)
        row.notices += [notice] if notice else []
        # The harness's own budget must say so: a turn claiming it is still judged.
        if outcome.stop_reason == BUDGET_STOP and context.agent.budget_spent() is not None:
            row.status = Status.INTERRUPTED
            row.failure = "stopped by the run's spend cap (--max-cost) before it finished"
            return row
        judge = Judge(
            suite=suite,
            backend=context.backend,
            base_policy=lambda folder: _base_policy(folder, context),
            runner=context.runners[task.check.runner],
            env=env,
        )
        verdict = await judge_in_copy(task, workspace, judge)
        verdict = strict(verdict) if settings.strict else verdict
        row.status = Status.PASS if verdict.passed else Status.FAIL
        row.failure, row.check = verdict.reason, verdict.check
        row.protected_changes = verdict.protected_changes
        row.left_out, row.suspicious = verdict.left_out, verdict.suspicious
        return row
    except Exception as error:
        row.status, row.stop_reason = Status.ERR, "error"
        row.failure = f"{type(error).__name__}: {error}"
        if turn_started:  # before the turn no model was called: the row's zero is known
            row.steps, row.usage = progress.steps, progress.usage
        return row
    finally:
        row.tool_calls = row.tool_calls or dict(progress.tool_calls)
        row.usage_by_model = row.usage_by_model or dict(progress.usage_by_model)
        row.duration_ms = _elapsed_ms(started)
        if not job.transcript.exists():
            job.transcript.parent.mkdir(parents=True, exist_ok=True)
            job.transcript.touch()
        await _cleanup(job, workspace, executor, settings.keep, recorder)
