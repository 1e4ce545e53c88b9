"""The run-backend hook: ``--backend`` picks a registered backend, which runs the jobs."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import anyio
import pytest

from garuda_evals.errors import GarudaError, UsageError
from garuda_evals.hookspecs import hookimpl
from garuda_evals.models.report import Report
from garuda_evals.models.result import TaskResult
from garuda_evals.models.settings import RunSettings
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.records import RunBackendRecord
from garuda_evals.runner.backends import LocalBackend, RunBackend, choose_backend
from garuda_evals.runner.session import EvalOutcome, run_eval
from garuda_evals.runner.task_run import Job, TaskContext
from garuda_evals.testing import run_settings


class TaggingBackend(LocalBackend):
    """The local backend under another name, marking each row with a node."""

    name = "tagging"

    def __init__(self, log: list[str], refuse: bool = False) -> None:
        self.log, self.refuse = log, refuse

    async def prepare(self, settings: RunSettings, toolchains: set[str]) -> None:
        self.log.append("prepare")
        if self.refuse:
            raise GarudaError("node n2 lacks toolchain python")

    async def run_jobs(
        self,
        jobs: list[Job],
        context: TaskContext,
        *,
        parallel: int,
        results: list[TaskResult | None],
        on_result: Callable[[Job, TaskResult], None],
    ) -> None:
        def tagged(job: Job, result: TaskResult) -> None:
            result.node = f"node-{job.index}"
            on_result(job, result)

        self.log.append("run")
        await super().run_jobs(jobs, context, parallel=parallel, results=results, on_result=tagged)

    async def aclose(self) -> None:
        self.log.append("close")


def registry_with(backend: RunBackend) -> PluginRegistry:
    class Plugin:
        @hookimpl
        def garuda_run_backends(self) -> Iterator[RunBackendRecord]:
            yield RunBackendRecord(name="tagging", description="test", load=lambda: backend)

    registry = PluginRegistry()
    registry.register(Plugin(), name="tagging", distribution="tagging-test", version="0")
    return registry


def run(project: Path, suite: Path, registry: PluginRegistry, backend: str) -> EvalOutcome:
    settings = run_settings(suites=[str(suite)], executor="host", agent="oracle", backend=backend)
    out, err = io.StringIO(), io.StringIO()
    return anyio.run(
        lambda: run_eval(settings, registry=registry, cwd=project, stdout=out, stderr=err)
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / ".git").mkdir(parents=True)
    return folder


def test_a_registered_backend_runs_the_jobs_and_the_report_names_it(
    project: Path, mini_suite: Path
) -> None:
    log: list[str] = []
    outcome = run(project, mini_suite, registry_with(TaggingBackend(log)), "tagging")
    assert outcome.exit_code == 0 and log == ["prepare", "run", "close"]
    assert outcome.report_path is not None
    saved = json.loads(outcome.report_path.read_text())
    assert saved["backend"] == "tagging"
    assert [(r["task"], r["node"]) for r in saved["results"]] == [
        ("add", "node-0"),
        ("greet", "node-1"),
    ]


def test_a_backend_that_refuses_in_prepare_stops_before_any_run(
    project: Path, mini_suite: Path
) -> None:
    log: list[str] = []
    with pytest.raises(GarudaError, match="node n2 lacks toolchain python"):
        run(project, mini_suite, registry_with(TaggingBackend(log, refuse=True)), "tagging")
    assert log == ["prepare"]
    assert not (project / ".garuda").exists()


def test_an_unknown_backend_lists_the_choices() -> None:
    registry = registry_with(TaggingBackend([]))
    with pytest.raises(UsageError) as error:
        choose_backend(registry, "dask")
    message, _, choices = str(error.value).partition("; choose one of: ")
    assert message == "--backend dask: unknown"
    assert {"local", "tagging"} <= set(choices.split(", "))
    assert isinstance(choose_backend(registry, "local"), LocalBackend)


def test_a_report_without_backend_or_node_still_loads(project: Path, mini_suite: Path) -> None:
    outcome = run(project, mini_suite, PluginRegistry(), "local")
    assert outcome.report_path is not None
    saved = json.loads(outcome.report_path.read_text())
    del saved["backend"], saved["settings"]["backend"]
    for row in saved["results"]:
        del row["node"]
    old = Report.model_validate(saved)
    assert old.backend == "local" and old.settings.backend == "local"
    assert [r.node for r in old.results] == [None, None]
