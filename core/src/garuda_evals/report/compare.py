"""Compare two runs (A/B): what settings differ, and per task and in total how each arm did."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from garuda_evals.errors import FileFormatError, describe_validation_error
from garuda_evals.files import parse_json
from garuda_evals.models.report import SCHEMA_VERSION, Report, TaskMean
from garuda_evals.models.settings import RunSettings
from garuda_evals.report import units
from garuda_evals.report.table import rates_line, tool_calls_line

IGNORED_SETTINGS = {"report_format"}


def load_report(path: Path) -> Report:
    """A saved report (a report.json or its run folder); bad files name the file and field."""
    file = path / "report.json" if path.is_dir() else path
    data = parse_json(file)
    version = data.get("schemaVersion") if isinstance(data, dict) else None
    if version != SCHEMA_VERSION:
        raise FileFormatError(
            f"{file}: field 'schemaVersion': expected {SCHEMA_VERSION}, got {version!r}"
        )
    try:
        return Report.model_validate(data)
    except ValidationError as error:
        raise FileFormatError(describe_validation_error(file, error)) from error


def _flat(settings: RunSettings) -> dict[str, object]:
    """Core's settings and every plugin option as one ``name -> value`` map."""
    flat = settings.model_dump(exclude={"options"})
    for values in settings.options.values():
        flat.update(values)
    return flat


def setting_differences(a: Report, b: Report) -> list[str]:
    """``--todo: off -> on`` for each flag (and the agent and executor) that differs."""
    left, right = _flat(a.settings), _flat(b.settings)
    lines = [
        f"{name}: {left[name]} -> {right[name]}"
        for name in left
        if name not in IGNORED_SETTINGS and left[name] != right[name]
    ]
    if a.agent != b.agent:
        lines.append(f"agent: {a.agent} -> {b.agent}")
    if a.executor.name != b.executor.name:
        lines.append(f"executor: {a.executor.name} -> {b.executor.name}")
    return lines


def _cell(mean: TaskMean | None) -> str:
    if mean is None:
        return "-"
    steps = "-" if mean.mean_steps is None else f"{mean.mean_steps:.1f}"
    return (
        f"{mean.passes}/{mean.runs} {steps} st {units.tokens(mean.mean_tokens)} "
        f"{units.cost(mean.mean_cost_usd, mean.cost_incomplete)}"
    )


def compare(a: Report, b: Report) -> str:
    """A text comparison of two reports."""
    lines = [f"A: {a.run_id}", f"B: {b.run_id}", "differences:"]
    lines += [f"  {line}" for line in setting_differences(a, b)] or ["  none (same settings)"]
    if min(a.settings.repeat, b.settings.repeat) < 3:
        lines.append("note: compare with --repeat 3 or more; one run per task is mostly noise")
    means_a = {(m.suite, m.task): m for m in a.tasks}
    means_b = {(m.suite, m.task): m for m in b.tasks}
    keys = list(dict.fromkeys([*means_a, *means_b]))
    rows = [("task", "A", "B")] + [
        (f"{suite}/{task}", _cell(means_a.get((suite, task))), _cell(means_b.get((suite, task))))
        for suite, task in keys
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines += [
        "",
        *("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows),
    ]
    lines += ["", f"A: {rates_line(a.summary)}", f"B: {rates_line(b.summary)}"]
    for label, report in (("A", a), ("B", b)):
        s = report.summary
        lines.append(
            f"{label}: {s.steps} steps · {units.tokens(s.tokens)} tokens · "
            f"{units.cost(s.cost_usd, s.cost_incomplete)} · cache {units.percent(s.cache_read_share)}"
        )
    for label, report in (("A", a), ("B", b)):
        tools = tool_calls_line(report.summary, len(report.results))
        if tools:
            lines.append(f"{label}: {tools}")
    return "\n".join(lines) + "\n"
