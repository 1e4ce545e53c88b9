"""Compare two runs (A/B): what differs, paired per-task differences and a verdict in words."""

from __future__ import annotations

from pathlib import Path

from garuda_evals.errors import GarudaError
from garuda_evals.models.report import Report
from garuda_evals.models.settings import RunSettings
from garuda_evals.report import units
from garuda_evals.report.comparison import Comparison, MetricDiff, TaskDiff, build_comparison
from garuda_evals.report.stats_lines import layout
from garuda_evals.report.table import rates_line, tool_calls_line
from garuda_evals.runner.saved_report import read_report

IGNORED_SETTINGS = {"report_format"}
SHOWN = 5


def load_report(path: Path) -> Report:
    """A saved report (a report.json or its run folder); bad files name the file and field."""
    return read_report(path / "report.json" if path.is_dir() else path)


def _flat(settings: RunSettings) -> dict[str, object]:
    """Core's settings and every plugin option as one ``name -> value`` map."""
    flat = settings.model_dump(exclude={"options"})
    for values in settings.options.values():
        flat.update(values)
    return flat


def _word(value: object) -> str:
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list | tuple):
        return ", ".join(str(item) for item in value) or "none"
    return str(value)


def _label(name: str) -> str:
    return name.replace("_", "-")


def setting_differences(a: Report, b: Report) -> list[str]:
    """``keep-thinking: on -> off``, once per thing that differs: flags, then the agent's own
    description (its model, say), the executor used and the versions of garuda and plugins."""
    left, right = _flat(a.settings), _flat(b.settings)
    names = [n for n in dict.fromkeys([*left, *right]) if n not in IGNORED_SETTINGS]
    differing = [n for n in names if left.get(n) != right.get(n)]
    lines = [f"{_label(n)}: {_word(left.get(n))} -> {_word(right.get(n))}" for n in differing]
    shown = {(_word(left.get(n)), _word(right.get(n))) for n in differing}
    for key in dict.fromkeys([*a.agent, *b.agent]):
        values = (_word(a.agent.get(key)), _word(b.agent.get(key)))
        if key not in differing and values[0] != values[1] and values not in shown:
            label = "agent" if key == "agent" else f"agent {_label(key)}"
            lines.append(f"{label}: {values[0]} -> {values[1]}")
    if a.executor.name != b.executor.name:
        lines.append(f"executor used: {a.executor.name} -> {b.executor.name}")
    for name in dict.fromkeys([*a.versions, *b.versions]):
        if a.versions.get(name) != b.versions.get(name):
            lines.append(
                f"{name} version: {_word(a.versions.get(name))} -> {_word(b.versions.get(name))}"
            )
    return lines


def _listed(names: list[str]) -> str:
    more = f" (+{len(names) - SHOWN} more)" if len(names) > SHOWN else ""
    return ", ".join(names[:SHOWN]) + more


def _toolchain(versions: dict[str, str] | None) -> str:
    if versions is None:
        return "absent"
    main = versions.get("version", "?")
    extra = ", ".join(f"{k} {v}" for k, v in versions.items() if k != "version")
    return f"{main} ({extra})" if extra else main


def measure_differences(a: Report, b: Report) -> list[str]:
    """What makes the two runs measure different things: tasks, task versions, toolchains."""
    keys_a = [(m.suite, m.task) for m in a.tasks]
    keys_b = [(m.suite, m.task) for m in b.tasks]
    lines: list[str] = []
    only_a = [f"{s}/{t}" for s, t in keys_a if (s, t) not in keys_b]
    only_b = [f"{s}/{t}" for s, t in keys_b if (s, t) not in keys_a]
    if only_a:
        lines.append(f"tasks only in A: {_listed(only_a)}")
    if only_b:
        lines.append(f"tasks only in B: {_listed(only_b)}")
    version_b = {(m.suite, m.task): m.task_version for m in b.tasks}
    changed = [
        f"{m.suite}/{m.task}"
        for m in a.tasks
        if m.task_version and version_b.get((m.suite, m.task)) not in (None, "", m.task_version)
    ]
    if changed:
        lines.append(f"task definitions differ (another suite version): {_listed(changed)}")
    for name in dict.fromkeys([*a.toolchains, *b.toolchains]):
        left, right = a.toolchains.get(name), b.toolchains.get(name)
        if left != right:
            lines.append(f"toolchain {name}: {_toolchain(left)} -> {_toolchain(right)}")
    return lines


def compare_reports(a: Report, b: Report, *, force: bool = False) -> Comparison:
    """The comparison, refused (naming what differs) when the runs measure different things."""
    measure = measure_differences(a, b)
    if measure and not force:
        raise GarudaError(
            "the runs measure different things (--force compares them anyway): "
            + "; ".join(measure)
        )
    return build_comparison(a, b, setting_differences(a, b), measure, force)


def _signed(value: float | None, unit: str) -> str:
    if value is None:
        return "?"
    if unit == "points":
        return f"{value * 100:+.0f}"
    if unit == "usd":
        return f"{'+' if value >= 0 else '-'}${abs(value):.3f}"
    if unit == "ms":
        return f"{'+' if value >= 0 else '-'}{units.seconds(abs(value))}"
    if unit == "tokens":
        return f"{'+' if value >= 0 else '-'}{units.tokens(abs(value))}"
    return f"{value:+.1f}"


def _plain(value: float | None, unit: str) -> str:
    if value is None:
        return "?"
    if unit == "points":
        return units.percent(value)
    if unit == "usd":
        return units.cost(value, False)
    if unit == "ms":
        return units.seconds(value)
    if unit == "tokens":
        return units.tokens(value)
    return f"{value:.1f}"


UNITS = {
    "pass_rate": ("pass rate", "points"),
    "steps": ("steps", "count"),
    "tokens": ("tokens", "tokens"),
    "cost_usd": ("cost", "usd"),
    "duration_ms": ("time", "ms"),
}


def _task_row(diff: TaskDiff) -> tuple[str, ...]:
    return (
        diff.task,
        units.rate(diff.a_passes, diff.a_runs),
        units.rate(diff.b_passes, diff.b_runs),
        _signed(diff.pass_rate_difference, "points"),
        _signed(diff.steps_difference, "count"),
        _signed(diff.tokens_difference, "tokens"),
        _signed(diff.cost_usd_difference, "usd"),
        _signed(diff.duration_ms_difference, "ms"),
    )


def _metric_row(metric: MetricDiff) -> tuple[str, ...]:
    label, unit = UNITS[metric.metric]
    interval = (
        "-"
        if metric.interval is None
        else f"{_signed(metric.interval[0], unit)} to {_signed(metric.interval[1], unit)}"
    )
    return (
        label,
        _plain(metric.a, unit),
        _plain(metric.b, unit),
        _signed(metric.difference, unit) + (" points" if unit == "points" else ""),
        interval,
        str(metric.tasks),
    )


def render(comparison: Comparison, a: Report, b: Report) -> str:
    """The comparison as text: differences in words, verdict, power, then the tables."""
    lines = [f"A: {comparison.a_run}", f"B: {comparison.b_run}", "settings that differ (A -> B):"]
    lines += [f"  {line}" for line in comparison.setting_differences] or ["  none"]
    if comparison.forced and comparison.measure_differences:
        lines.append("compared with --force although they measure different things:")
        lines += [f"  {line}" for line in comparison.measure_differences]
    lines += ["", f"verdict: {comparison.verdict}", comparison.power]
    if comparison.tasks:
        headers = ("task", "A pass", "B pass", "Δ pass", "Δ steps", "Δ tokens", "Δ cost", "Δ time")
        lines += [
            "",
            "per task (Δ = B − A, means over scored runs; pass in points; 95% Wilson CI):",
        ]
        lines += layout([headers, *(_task_row(d) for d in comparison.tasks)], indent="")
        summary = ("mean per task", "A", "B", "B − A", "95% CI (paired bootstrap)", "tasks")
        lines += ["", *layout([summary, *(_metric_row(m) for m in comparison.metrics)], "")]
    lines += ["", f"A: {rates_line(a.summary)}", f"B: {rates_line(b.summary)}"]
    for label, report in (("A", a), ("B", b)):
        tools = tool_calls_line(report.summary, len(report.results))
        if tools:
            lines.append(f"{label}: {tools}")
    return "\n".join(lines) + "\n"


def compare(a: Report, b: Report, *, force: bool = False) -> str:
    """What ``garuda compare`` prints for two reports (refused as ``compare_reports`` is)."""
    return render(compare_reports(a, b, force=force), a, b)
