"""Build and save report.json."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as dist_version
from pathlib import Path

from garuda_evals import __version__
from garuda_evals.agents.base import BUDGET_STOP, RunLimits
from garuda_evals.executors.base import ExecutorInfo
from garuda_evals.models.report import ExecutorRecord, Report
from garuda_evals.models.result import TaskResult
from garuda_evals.models.settings import RunSettings
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.report import units
from garuda_evals.report.json_format import JsonFormatter
from garuda_evals.report.summary import summarize, task_means, total_usage
from garuda_evals.toolchains.base import ToolchainStatus

REPORT_FILE = "report.json"


def iso(timestamp: float) -> str:
    """UTC ISO-8601 with seconds."""
    return datetime.fromtimestamp(timestamp, UTC).isoformat(timespec="seconds")


def versions(registry: PluginRegistry, drivers: Iterable[str] = ()) -> dict[str, str]:
    """garuda-evals, every plugin distribution, and the distributions of the drivers that
    took part (the executor and the agent), with versions."""
    found = {"garuda-evals": __version__}
    for plugin in registry.plugins:
        found[plugin.distribution] = plugin.version
    for distribution in drivers:
        if distribution and distribution not in found:
            try:
                found[distribution] = dist_version(distribution)
            except PackageNotFoundError:
                found[distribution] = "?"
    return found


def run_notes(results: list[TaskResult], replaced: list[TaskResult]) -> list[str]:
    """Warnings about how the results were gathered: retried runs and replaced attempts."""
    notes: list[str] = []
    retried = [r for r in results if r.retried]
    if retried:
        tags = ", ".join(f"{r.suite}/{r.task}#{r.repeat}" for r in retried[:5])
        more = f" and {len(retried) - 5} more" if len(retried) > 5 else ""
        notes.append(
            f"retried: {len(retried)} error run(s) were run again by --retry-errors ({tags}"
            f"{more}); rerunning only errors can bias a rate, compare with the first attempt"
        )
    if replaced:
        spent = total_usage(replaced)
        kinds = sorted({r.status.value for r in replaced})
        notes.append(
            f"replaced: {len(replaced)} earlier attempt(s) ({', '.join(kinds)}) were run again; "
            f"they used {units.cost(spent.cost_usd, spent.cost_incomplete)}, kept under "
            "'replaced' and not in the totals"
        )
    return notes


def budget_note(stopped: str | None, results: list[TaskResult], planned: int) -> list[str]:
    """The warning of a run the spend cap stopped: what was cut short, what never started."""
    cut = sum(1 for r in results if r.stop_reason == BUDGET_STOP)
    if stopped is None or (cut == 0 and len(results) >= planned):
        return []
    return [
        f"budget: {stopped}; {cut} run(s) cut short (INT) and {planned - len(results)} of "
        f"{planned} not started (no row); both are left out of the rates"
    ]


def toolchain_versions(statuses: dict[str, ToolchainStatus]) -> dict[str, dict[str, str]]:
    """Per toolchain: its version and any extra versions (the JDK beside Maven)."""
    return {
        name: {**({"version": s.version} if s.version else {}), **s.versions}
        for name, s in statuses.items()
    }


def build_report(
    *,
    run_id: str,
    started: float,
    finished: float,
    settings: RunSettings,
    limits: RunLimits,
    parallel: int,
    agent: dict[str, str],
    executor: ExecutorInfo,
    chosen_because: str,
    registry: PluginRegistry,
    toolchains: dict[str, ToolchainStatus],
    results: list[TaskResult],
    interrupted: bool,
    versions_used: dict[str, str] | None = None,
    replaced: list[TaskResult] | None = None,
) -> Report:
    """The whole report from a run's parts."""
    return Report(
        run_id=run_id,
        started_at=iso(started),
        finished_at=iso(finished),
        wall_ms=int((finished - started) * 1000),
        interrupted=interrupted,
        batch=limits.batch,
        parallel=parallel,
        task_timeout_s=limits.task_timeout_s or settings.task_timeout_s,
        settings=settings,
        agent=agent,
        executor=ExecutorRecord(
            name=executor.name,
            kind=executor.kind,
            denies=list(executor.denies),
            detail=executor.detail,
            chosen_because=chosen_because,
        ),
        versions=versions_used if versions_used is not None else versions(registry),
        toolchains=toolchain_versions(toolchains),
        toolchain_probes={
            name: "cached" if status.cached else "probed" for name, status in toolchains.items()
        },
        summary=summarize(results),
        tasks=task_means(results),
        results=results,
        warnings=list(registry.warnings),
        replaced=list(replaced or []),
    )


def regraded_report(
    original: Report,
    *,
    run_id: str,
    started: float,
    finished: float,
    results: list[TaskResult],
    versions_used: dict[str, str],
    toolchains: dict[str, ToolchainStatus],
) -> Report:
    """A regrade of ``original``, built as a run's report is: the summary and per-task means
    from its own rows, the toolchains its check ran with; the settings, agent and executor
    of the run it regrades (whose usage and cost its rows keep)."""
    return original.model_copy(
        update={
            "run_id": run_id,
            "started_at": iso(started),
            "finished_at": iso(finished),
            "wall_ms": int((finished - started) * 1000),
            "regrade_of": original.run_id,
            "versions": versions_used,
            "toolchains": {**original.toolchains, **toolchain_versions(toolchains)},
            "toolchain_probes": {
                **original.toolchain_probes,
                **{name: "cached" if s.cached else "probed" for name, s in toolchains.items()},
            },
            "summary": summarize(results),
            "tasks": task_means(results),
            "results": results,
        }
    )


def save_report(report: Report, run_dir: Path) -> Path:
    """Write ``report.json`` atomically; return its path."""
    run_dir.mkdir(parents=True, exist_ok=True)
    path = run_dir / REPORT_FILE
    partial = path.with_suffix(".json.tmp")
    partial.write_text(JsonFormatter().render(report), encoding="utf-8")
    partial.replace(path)
    return path
