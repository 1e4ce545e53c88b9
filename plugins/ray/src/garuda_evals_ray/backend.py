"""The ``ray`` run backend: each task run is a Ray task on a node of a cluster.

``prepare`` joins the cluster (``--ray-address``) or starts a local Ray for the run, then
probes every node with the ``garuda`` resource for the chosen tasks' toolchains before any
agent call. ``run_jobs`` keeps ``--parallel`` runs in flight across the good nodes, at most a
node's ``garuda`` resource on each, and hands results back as they finish. Ctrl-C cancels
every Ray task (force: the worker process dies, and the sandbox with it).
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

from garuda_evals.api import (
    GarudaError,
    Job,
    Progress,
    RunSettings,
    Status,
    TaskContext,
    TaskResult,
    Usage,
    UsageError,
    choose_executor,
    get_registry,
    interrupted_row,
    new_row,
)
from garuda_evals_ray.joining import check_address
from garuda_evals_ray.nodes import Node, cluster_nodes, refusal
from garuda_evals_ray.options import OWNER
from garuda_evals_ray.worker import RunInput, RunOutput, execute, probe, remove_scratch

RESOURCE = "garuda"
"""The custom resource a node offers per run it may hold at once (``ray start --resources``)."""
KEY_NAMES = re.compile(r"^(GARUDA_.*|.*_API_KEY|.*_BASE_URL|.*_API_BASE)$")
WAIT_S = 0.5
CANCEL_WAIT_S = 30.0


def forwarded_env(settings: RunSettings, environ: dict[str, str]) -> dict[str, str]:
    """The variables workers need from the driver: ``--agent-env`` names, the model keys and
    base URLs, and ``GARUDA_*``; they travel in each task's arguments, never in logs."""
    wanted = set(settings.agent_env)
    return {
        name: value for name, value in environ.items() if name in wanted or KEY_NAMES.match(name)
    }


def read_runtime_env(path: str | None) -> dict[str, Any] | None:
    """``--ray-runtime-env FILE``: a JSON object; keys in its ``env_vars`` are refused, since
    Ray writes a runtime environment's variables to its logs."""
    if path is None:
        return None
    flag = f"--ray-runtime-env {path}"
    try:
        value = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise UsageError(f"{flag}: not a readable JSON file: {error}") from error
    if not isinstance(value, dict):
        raise UsageError(f"{flag}: must be a JSON object (Ray's runtime_env)")
    variables = value.get("env_vars") or {}
    keys = sorted(name for name in variables if KEY_NAMES.match(str(name)))
    if keys:
        raise UsageError(
            f"{flag}: field 'env_vars': {keys[0]} looks like a key, and Ray writes these "
            "variables to its logs; leave it in your environment (the runs get it)"
        )
    return value


@dataclass
class _Flight:
    job: Job
    node: Node
    started: float


class RayBackend:
    """Task runs as Ray tasks; see the module docstring."""

    name = "ray"

    def __init__(self) -> None:
        self.ray: Any = None
        self.started_here = False
        self.owned = True
        self.nodes: list[Node] = []
        self.token = uuid.uuid4().hex[:12]
        self.keep = False

    async def prepare(self, settings: RunSettings, toolchains: set[str]) -> None:
        """Join or start Ray, then probe every node; a node that lacks a toolchain is named
        and refuses the run, or with ``--skip-nodes`` is left out."""
        import ray

        from garuda_evals_ray.ray_options import RayOptions

        options = settings.options_for(OWNER, RayOptions)
        runtime_env = read_runtime_env(options.ray_runtime_env)
        self.ray, self.keep = ray, settings.keep
        if ray.is_initialized():
            # This process already joined a cluster (a notebook, a Ray job): use it, keep it.
            if runtime_env is not None:
                raise UsageError(
                    f"--ray-runtime-env {options.ray_runtime_env}: this process has already "
                    "joined Ray, whose runtime environment is set"
                )
            self.owned = False
        elif options.ray_address:
            check_address(options.ray_address)
            try:
                ray.init(
                    address=options.ray_address,
                    runtime_env=runtime_env,
                    logging_level=logging.ERROR,
                    log_to_driver=False,
                )
            except (ConnectionError, RuntimeError, ValueError, ray.exceptions.RayError) as error:
                raise GarudaError(
                    f"--ray-address {options.ray_address}: cannot join the cluster: "
                    f"{_with_cause(error)}"
                ) from error
        else:
            ray.init(
                address="local",
                num_cpus=max(1, os.cpu_count() or 1),
                resources={RESOURCE: settings.parallel},
                runtime_env=runtime_env,
                include_dashboard=False,
                logging_level=logging.ERROR,
                log_to_driver=False,
            )
            self.started_here = True
        executor = choose_executor(settings.executor, get_registry()).backend.name
        candidates = cluster_nodes(ray.nodes(), RESOURCE)
        if not candidates:
            raise GarudaError(
                f"--backend ray: no node of the cluster offers the '{RESOURCE}' resource; "
                f"start nodes with ray start --resources '{{\"{RESOURCE}\": N}}' "
                "(N runs at once on that node)"
            )
        probes = [
            ray.remote(probe)
            .options(num_cpus=0, scheduling_strategy=node.affinity(), max_retries=0)
            .remote(sorted(toolchains), settings.executor)
            for node in candidates
        ]
        answers = await anyio.to_thread.run_sync(ray.get, probes)
        good: list[Node] = []
        bad: list[str] = []
        for node, (name, problems, node_executor) in zip(candidates, answers, strict=True):
            if node_executor != executor:
                problems = [
                    *problems,
                    f"its executor would be {node_executor}, this run's is {executor}",
                ]
            if problems:
                bad.append(f"node {name}: {'; '.join(problems)}")
            else:
                good.append(node)
        if bad and not options.skip_nodes:
            raise GarudaError(refusal(bad))
        if not good:
            raise GarudaError(refusal(bad, none_left=True))
        for line in bad:
            print(f"--skip-nodes: left out {line}", flush=True, file=_stderr())
        self.nodes = good
        where = (
            "a local Ray started for this run"
            if self.started_here
            else options.ray_address
            if self.owned
            else "the Ray this process had joined"
        )
        slots = sum(node.slots for node in good)
        print(
            f"backend: ray ({where}; {len(good)} node(s), {slots} run(s) at most at once)",
            flush=True,
            file=_stderr(),
        )

    async def run_jobs(
        self,
        jobs: list[Job],
        context: TaskContext,
        *,
        parallel: int,
        results: list[TaskResult | None],
        on_result: Callable[[Job, TaskResult], None],
    ) -> None:
        """Keep ``parallel`` runs in flight on the good nodes; store each result as it ends."""
        ray = self.ray
        remote = ray.remote(execute)
        settings_json = context.settings.model_dump_json()
        env = forwarded_env(context.settings, dict(os.environ))
        specs = _suite_specs(jobs)
        waiting = deque(jobs)
        flights: dict[Any, _Flight] = {}
        limit = max(1, parallel)

        def finish(job: Job, row: TaskResult) -> None:
            results[job.index] = row
            on_result(job, row)

        try:
            while waiting or flights:
                while waiting and len(flights) < limit:
                    node = self._free_node(flights)
                    if node is None:
                        break
                    job = waiting.popleft()
                    ref = remote.options(
                        num_cpus=0,
                        resources={RESOURCE: 1},
                        max_retries=0,
                        name="garuda-run",
                        scheduling_strategy=node.affinity(),
                    ).remote(_run_input(job, context, settings_json, specs, env, self.token))
                    flights[ref] = _Flight(job, node, time.monotonic())
                    context.emit("start", job, job.item.task.title)
                if not flights:
                    for job in waiting:
                        finish(job, self._lost(job, "no node is left to run it on"))
                    return
                done = await anyio.to_thread.run_sync(lambda: _ready(ray, list(flights)))
                for ref in done:
                    flight = flights.pop(ref)
                    finish(flight.job, self._row(ref, flight))
        except anyio.get_cancelled_exc_class():
            with anyio.CancelScope(shield=True):
                if flights:
                    ended, _ = ray.wait(list(flights), num_returns=len(flights), timeout=0)
                    for ref in ended:
                        flight = flights.pop(ref)
                        finish(flight.job, self._row(ref, flight))
                for ref in flights:
                    ray.cancel(ref, force=True)
                for flight in flights.values():
                    elapsed = int((time.monotonic() - flight.started) * 1000)
                    row = interrupted_row(flight.job, _lost_progress(flight), elapsed)
                    row.node = flight.node.name
                    _touch(flight.job.transcript)
                    finish(flight.job, row)
                if flights:
                    await anyio.to_thread.run_sync(
                        lambda: ray.wait(
                            list(flights), num_returns=len(flights), timeout=CANCEL_WAIT_S
                        )
                    )
            raise

    def _free_node(self, flights: dict[Any, _Flight]) -> Node | None:
        """The good node with the most free slots (its ``garuda`` resource less its flights)."""
        busy: dict[str, int] = {}
        for flight in flights.values():
            busy[flight.node.node_id] = busy.get(flight.node.node_id, 0) + 1
        free = [(n.slots - busy.get(n.node_id, 0), n) for n in self.nodes]
        best = max(free, key=lambda pair: pair[0], default=None)
        return best[1] if best is not None and best[0] > 0 else None

    def _row(self, ref: Any, flight: _Flight) -> TaskResult:
        """The finished job's row: the worker's, with transcript and change written here; a
        lost worker or a harness error on the node is an ERR row naming the node."""
        ray, job = self.ray, flight.job
        try:
            output: RunOutput = ray.get(ref)
        except ray.exceptions.RayError as error:
            gone = (ray.exceptions.NodeDiedError, ray.exceptions.TaskUnschedulableError)
            if isinstance(error, gone) and flight.node in self.nodes:
                self.nodes.remove(flight.node)  # no more runs go to a node that is gone
            row = self._lost(job, f"on node {flight.node.name}: {_describe(error)}")
            row.duration_ms = int((time.monotonic() - flight.started) * 1000)
            row.node = flight.node.name
            return row
        row = TaskResult.model_validate(output.row)
        job.transcript.parent.mkdir(parents=True, exist_ok=True)
        job.transcript.write_bytes(output.transcript)
        row.transcript = str(job.transcript)
        if row.change and output.change is not None and job.change is not None:
            job.change.parent.mkdir(parents=True, exist_ok=True)
            job.change.write_bytes(output.change)
        else:
            row.change = None
        row.node = output.node
        return row

    def _lost(self, job: Job, failure: str) -> TaskResult:
        """An ERR row for a run that returned nothing (its transcript file left empty)."""
        row = new_row(job)
        row.status, row.stop_reason, row.failure = Status.ERR, "error", failure
        _touch(job.transcript)
        return row

    async def aclose(self) -> None:
        """Remove the run's scratch on every node (unless ``--keep``); leave a cluster joined
        here (stopping a Ray started for the run); keep a connection the process already had."""
        ray = self.ray
        if ray is None or not ray.is_initialized():
            return
        if not self.keep and self.nodes:
            cleanups = [
                ray.remote(remove_scratch)
                .options(num_cpus=0, scheduling_strategy=node.affinity(), max_retries=0)
                .remote(self.token)
                for node in self.nodes
            ]
            await anyio.to_thread.run_sync(
                lambda: ray.wait(cleanups, num_returns=len(cleanups), timeout=CANCEL_WAIT_S)
            )
        if self.owned:
            ray.shutdown()


def _lost_progress(flight: _Flight) -> Progress:
    """What a run cancelled on a worker used: unknown here (its agent's progress was on the
    worker, which was killed), never a known zero."""
    note = (
        f"the run was cancelled on node {flight.node.name}; what its agent had used stayed on "
        "the worker: tokens unknown, cost incomplete"
    )
    return Progress(steps=None, usage=Usage.unreported(note))


def _touch(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch()


def _ready(ray: Any, refs: list[Any]) -> list[Any]:
    """The finished refs: wait up to ``WAIT_S`` for one, then take every other already done."""
    done, rest = ray.wait(refs, num_returns=1, timeout=WAIT_S)
    if done and rest:
        more, _ = ray.wait(rest, num_returns=len(rest), timeout=0)
        done += more
    return list(done)


def _describe(error: BaseException) -> str:
    cause = getattr(error, "cause", None)
    if isinstance(cause, BaseException):
        return f"{type(cause).__name__}: {cause}"
    first = str(error).strip().splitlines()
    return f"{type(error).__name__}: {first[0] if first else ''}".rstrip(": ")


def _with_cause(error: BaseException) -> str:
    """The error's first line, and its cause's when it has one (Ray's "Failed to connect"
    hides why)."""
    parts = [error]
    if error.__cause__ is not None:
        parts.append(error.__cause__)
    lines = [(str(part).strip().splitlines() or [type(part).__name__])[0] for part in parts]
    return ": ".join(lines)


def _stderr() -> Any:
    import sys

    return sys.stderr


def _suite_specs(jobs: list[Job]) -> dict[int, str]:
    """How a worker finds each job's suite: a registered suite by name when the job's suite
    is that one, else the suite folder's absolute path (which must exist on the nodes)."""
    registered = get_registry().suites()
    specs: dict[int, str] = {}
    for suite in {id(job.item.suite): job.item.suite for job in jobs}.values():
        root = getattr(suite, "root", None)
        record = registered.get(suite.name)
        same = record is not None and (
            root is None or getattr(record.record.load(), "root", None) == root
        )
        specs[id(suite)] = suite.name if same or root is None else str(Path(root).resolve())
    return specs


def _run_input(
    job: Job,
    context: TaskContext,
    settings_json: str,
    specs: dict[int, str],
    env: dict[str, str],
    token: str,
) -> RunInput:
    change = job.change.relative_to(job.transcript.parent).as_posix() if job.change else None
    return RunInput(
        token=token,
        settings_json=settings_json,
        suite_spec=specs[id(job.item.suite)],
        suite=job.item.task.suite,
        task=job.item.task.id,
        repeat=job.repeat,
        index=job.index,
        transcript_name=job.transcript.name,
        change_name=change,
        executor=context.backend.name,
        hidden=tuple(str(p) for p in context.hidden),
        task_timeout_s=context.task_timeout_s,
        env=env,
    )
