"""Run backends (``--backend``): where a run's task runs execute; core's own is ``local``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from garuda_evals.errors import UsageError
from garuda_evals.models.result import TaskResult
from garuda_evals.models.settings import RunSettings
from garuda_evals.plugins.known import RUN_BACKENDS, install_hint
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.runner.run import run_jobs
from garuda_evals.runner.task_run import Job, TaskContext

LOCAL = "local"


@runtime_checkable
class RunBackend(Protocol):
    """An engine that runs jobs with the same ``run_job`` code, here or on other machines.

    The session calls ``prepare`` once the local toolchains passed and before the first
    agent call, then ``run_jobs`` once, then ``aclose`` (also after Ctrl-C or a failure).
    """

    name: str

    async def prepare(self, settings: RunSettings, toolchains: set[str]) -> None:
        """Connect and check every place a run may execute (``toolchains`` are the names the
        chosen tasks require); raise GarudaError naming what is missing to refuse the run."""
        ...

    async def run_jobs(
        self,
        jobs: list[Job],
        context: TaskContext,
        *,
        parallel: int,
        results: list[TaskResult | None],
        on_result: Callable[[Job, TaskResult], None],
    ) -> None:
        """Run ``jobs``, ``parallel`` in flight, as ``runner.run.run_jobs`` does: each result
        is stored at its job's index and passed to ``on_result`` as it finishes; when the
        surrounding scope is cancelled, the runs in flight stop and become interrupted rows."""
        ...

    async def aclose(self) -> None:
        """Release what ``prepare`` started (connections, a cluster started for the run)."""
        ...


class LocalBackend:
    """Every run in this process, ``--parallel`` at once (``runner.run.run_jobs``)."""

    name = LOCAL

    async def prepare(self, settings: RunSettings, toolchains: set[str]) -> None:
        """Nothing to check: the session already probed this machine's toolchains."""

    async def run_jobs(
        self,
        jobs: list[Job],
        context: TaskContext,
        *,
        parallel: int,
        results: list[TaskResult | None],
        on_result: Callable[[Job, TaskResult], None],
    ) -> None:
        """Run the jobs here with ``run_jobs``."""
        await run_jobs(jobs, context, parallel=parallel, results=results, on_result=on_result)

    async def aclose(self) -> None:
        """Nothing to release."""


def choose_backend(registry: PluginRegistry, name: str) -> RunBackend:
    """The ``--backend`` backend; an unknown name is a UsageError listing the choices."""
    backends = registry.run_backends()
    if name not in backends:
        choices = ", ".join(sorted(backends))
        hint = install_hint(RUN_BACKENDS, name)
        raise UsageError(f"--backend {name}: unknown{hint}; choose one of: {choices}")
    backend: RunBackend = backends[name].record.load()
    return backend
