"""The runs of a project, newest first, as ``garuda runs`` lists them; pruning old ones."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from garuda_evals.errors import GarudaError
from garuda_evals.models.report import Report
from garuda_evals.report import units
from garuda_evals.runner.journal import MANIFEST_FILE, RESULTS_FILE, RunManifest
from garuda_evals.runner.report_build import REPORT_FILE, iso
from garuda_evals.runner.run_folder import is_run_folder
from garuda_evals.runner.saved_report import read_report


@dataclass(frozen=True)
class RunLine:
    """One run as listed."""

    run_id: str
    folder: Path
    cells: tuple[str, ...]


def run_folders(evals: Path) -> list[Path]:
    """Run folders (those with a report or a run.json), newest first by run id (its time),
    then by when the folder last changed (two runs started in the same second)."""
    if not evals.is_dir():
        return []
    found = [p for p in evals.iterdir() if is_run_folder(p)]
    return sorted(found, key=lambda p: (p.name[:15], p.stat().st_mtime), reverse=True)


def _agent(agent: dict[str, str]) -> str:
    name = agent.get("agent", "?")
    return f"{name}/{agent['model']}" if agent.get("model") else name


def _from_report(folder: Path, report: Report) -> RunLine:
    summary = report.summary
    state = "interrupted" if report.interrupted else "complete"
    if report.regrade_of:
        state = f"regrade of {report.regrade_of}"
    cells = (
        report.run_id,
        report.started_at.replace("T", " ")[:16],
        ",".join(report.settings.suites),
        _agent(report.agent),
        f"{summary.passed}/{summary.scored} {units.percent(summary.scored_rate)}",
        f"{summary.passed}/{summary.attempted} {units.percent(summary.attempted_rate)}",
        units.cost(summary.cost_usd, summary.cost_incomplete),
        state,
    )
    return RunLine(report.run_id, folder, cells)


def _from_manifest(folder: Path, manifest: RunManifest) -> RunLine:
    results = folder / RESULTS_FILE
    done = len(results.read_bytes().splitlines()) if results.is_file() else 0
    cells = (
        manifest.run_id,
        iso(manifest.started).replace("T", " ")[:16],
        ",".join(manifest.settings.suites),
        _agent(manifest.agent),
        "-",
        "-",
        "-",
        f"no report ({done}/{len(manifest.jobs)} runs saved: --resume it)",
    )
    return RunLine(manifest.run_id, folder, cells)


def describe(folder: Path) -> RunLine:
    """A run folder's line; a folder that cannot be read says so."""
    try:
        if (folder / REPORT_FILE).is_file():
            return _from_report(folder, read_report(folder / REPORT_FILE))
        manifest = RunManifest.model_validate_json((folder / MANIFEST_FILE).read_bytes())
        return _from_manifest(folder, manifest)
    except (GarudaError, ValidationError, OSError, ValueError) as error:
        first = str(error).splitlines()[0]
        return RunLine(
            folder.name, folder, (folder.name, "?", "?", "?", "-", "-", "-", f"unreadable: {first}")
        )


HEADERS = ("run", "date (UTC)", "suites", "agent", "scored", "attempted", "cost", "state")


def table(lines: list[RunLine]) -> str:
    """The runs as aligned columns under a header."""
    rows = [HEADERS, *(line.cells for line in lines)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(HEADERS))]
    return (
        "\n".join(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
            for row in rows
        )
        + "\n"
    )


def prune(evals: Path, keep_last: int) -> list[Path]:
    """Remove every run folder but the newest ``keep_last``; return the removed folders."""
    removed = run_folders(evals)[keep_last:]
    for folder in removed:
        shutil.rmtree(folder)
    return removed
