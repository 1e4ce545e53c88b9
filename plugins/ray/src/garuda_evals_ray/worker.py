"""What runs on a Ray worker: rebuild a run's parts from plain values, then ``run_job``.

Nothing live crosses the wire: the worker gets the settings as JSON, the suite and task by
name, the repeat, and the model keys; it builds the registry, the agent, the executor and
the check runners itself, runs the same ``run_job`` as the local backend, and sends back
the row, the transcript and the stored change as bytes.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

SCRATCH_PREFIX = "garuda-ray-"


@dataclass(frozen=True)
class RunInput:
    """One job, as plain values a Ray task can carry."""

    token: str
    settings_json: str
    suite_spec: str
    """A registered suite's name, or the absolute path of a suite folder."""
    suite: str
    task: str
    repeat: int
    index: int
    transcript_name: str
    change_name: str | None
    executor: str
    hidden: tuple[str, ...]
    task_timeout_s: float
    env: dict[str, str] = field(repr=False)
    """Model keys and the agent's variables: set only while the job runs, never logged."""


@dataclass(frozen=True)
class RunOutput:
    """What a worker sends back."""

    row: dict[str, Any]
    transcript: bytes
    change: bytes | None
    node: str


def scratch_root(token: str) -> Path:
    """This node's folder for one run's scratch (workspaces, transcripts before sending)."""
    return Path(tempfile.gettempdir()) / f"{SCRATCH_PREFIX}{token}"


@contextmanager
def job_environment(env: dict[str, str], scratch: Path) -> Iterator[None]:
    """The driver's keys in ``os.environ`` and scratch under ``scratch`` while a job runs;
    a worker process runs one job at a time, and the next job starts from what was there."""
    saved = {name: os.environ.get(name) for name in env}
    saved_tempdir = tempfile.tempdir
    os.environ.update(env)
    tempfile.tempdir = str(scratch)
    try:
        yield
    finally:
        tempfile.tempdir = saved_tempdir
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def node_name() -> str:
    """This node's name in rows and errors (see ``nodes.node_label``)."""
    import ray

    from garuda_evals_ray.nodes import node_label

    return node_label(ray.util.get_node_ip_address(), ray.get_runtime_context().get_node_id())


def execute(run: RunInput) -> RunOutput:
    """Run one job here and return its row, transcript and change (the Ray task's body)."""
    root = scratch_root(run.token)
    out = root / f"out-{run.index}"
    (out / "changes").mkdir(parents=True, exist_ok=True)
    try:
        with job_environment(run.env, root):
            row = anyio.run(_run, run, out)
        transcript = out / run.transcript_name
        change = out / run.change_name if run.change_name else None
        return RunOutput(
            row=row,
            transcript=transcript.read_bytes() if transcript.exists() else b"",
            change=change.read_bytes() if change is not None and change.exists() else None,
            node=node_name(),
        )
    finally:
        shutil.rmtree(out, ignore_errors=True)


async def _run(run: RunInput, out: Path) -> dict[str, Any]:
    from garuda_evals.api import (
        Job,
        RunSettings,
        TaskContext,
        choose_agent,
        choose_executor,
        get_registry,
        run_job,
        select,
    )

    settings = RunSettings.model_validate_json(run.settings_json)
    registry = get_registry()
    chosen = [
        item
        for item in select(registry, [run.suite_spec], [run.task])
        if item.task.suite == run.suite
    ]
    if not chosen:
        raise LookupError(f"task {run.suite}/{run.task} not found on {socket.gethostname()}")
    choice = choose_executor(settings.executor, registry)
    if choice.backend.name != run.executor:
        raise RuntimeError(
            f"this node's executor is {choice.backend.name}, the run's {run.executor}"
        )
    factory = choose_agent(settings, registry)
    runners = registry.check_runners()
    job = Job(
        index=run.index,
        item=chosen[0],
        repeat=run.repeat,
        transcript=out / run.transcript_name,
        change=out / run.change_name if run.change_name else None,
    )
    context = TaskContext(
        settings=settings,
        agent=factory.create(settings),
        backend=choice.backend,
        runners={job.item.task.check.runner: runners[job.item.task.check.runner].record.load()},
        emit=lambda kind, job, message: None,
        hidden=tuple(Path(p) for p in run.hidden),
        task_timeout_s=run.task_timeout_s,
    )
    row = await run_job(job, context)
    return row.model_dump(mode="json")


def probe(names: list[str], executor_mode: str) -> tuple[str, list[str], str]:
    """On one node: its name, why each needed toolchain is not ready, and its executor."""
    from garuda_evals.api import (
        GarudaError,
        choose_executor,
        get_registry,
        missing_message,
        probe_all,
        resolve_toolchains,
    )

    registry = get_registry()
    try:
        statuses = anyio.run(probe_all, resolve_toolchains(registry, set(names)))
    except GarudaError as error:
        return node_name(), [str(error)], "?"
    problems = [missing_message(s).splitlines()[0] for s in statuses.values() if not s.ok]
    try:
        executor = choose_executor(executor_mode, registry).backend.name
    except GarudaError as error:
        executor = f"none ({error})"
    return node_name(), problems, executor


def remove_scratch(token: str) -> None:
    """Remove this node's scratch of one run (after it ended, or was cancelled)."""
    from garuda_evals.api import remove_tree

    remove_tree(scratch_root(token))  # an agent's tree, however deep, may be left in it
