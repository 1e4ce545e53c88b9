"""The terminal table: one row per run, totals, per-task means and both rates."""

from __future__ import annotations

from pathlib import Path

from garuda_evals.models.report import Report, Summary, TaskMean
from garuda_evals.models.result import TaskResult
from garuda_evals.report import units
from garuda_evals.report.formatter import ReportFormatter
from garuda_evals.report.stats_lines import flaky_lines, pass_k_lines

HEADERS = ("task", "result", "steps", "tokens", "cost", "time", "stop")
REASON_WIDTH = 100


def _row(result: TaskResult, repeats: bool) -> tuple[str, ...]:
    name = f"{result.suite}/{result.task}" + (f" #{result.repeat}" if repeats else "")
    return (
        name,
        result.shown_status,
        "?" if result.steps is None else str(result.steps),
        units.usage_tokens(result.usage),
        units.cost(result.usage.cost_usd, result.usage.cost_incomplete),
        units.seconds(result.duration_ms),
        result.stop_reason,
    )


def _layout(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


def rates_line(summary: Summary) -> str:
    """``5/5 scored runs passed (100%) · 5/6 of all attempted runs (83%) · 1 error run(s)``,
    then the 95% intervals: `` · 95% CI scored 57–100%, attempted 44–97%``."""
    line = (
        f"{summary.passed}/{summary.scored} scored runs passed ({units.percent(summary.scored_rate)})"
        f" · {summary.passed}/{summary.attempted} of all attempted runs "
        f"({units.percent(summary.attempted_rate)})"
    )
    line += f" · {summary.errors} error run(s)" if summary.errors else ""
    line += (
        f" · {summary.suspicious_passes} of the passes PASS? (read the change: see suspicious)"
        if summary.suspicious_passes
        else ""
    )
    return line + intervals_text(summary)


def intervals_text(summary: Summary) -> str:
    """`` · 95% CI scored 57–100%, attempted 44–97%`` (Wilson), or nothing without runs."""
    parts = [
        f"{label} {units.interval(interval)}"
        for label, interval in (
            ("scored", summary.scored_rate_interval),
            ("attempted", summary.attempted_rate_interval),
        )
        if interval is not None
    ]
    return f" · 95% CI {', '.join(parts)}" if parts else ""


def totals_line(summary: Summary) -> str:
    """Steps, tokens (kept apart), cost, time and the cache share."""
    if summary.tokens_known:
        tokens = (
            f"{units.tokens(summary.tokens)} tokens (in {units.tokens(summary.input_tokens)}, "
            f"cache read {units.tokens(summary.cache_read_tokens)}, "
            f"cache write {units.tokens(summary.cache_write_tokens)}, "
            f"out {units.tokens(summary.output_tokens)})"
        )
    else:
        reserved = (
            f", {units.tokens(summary.unreported_tokens)} reserved"
            if summary.unreported_tokens
            else ""
        )
        tokens = f"tok ? (some usage unreported{reserved})"
    return (
        f"total: {summary.steps if summary.steps_known else '?'} steps · {tokens} · "
        f"{units.cost(summary.cost_usd, summary.cost_incomplete)} · "
        f"{units.seconds(summary.duration_ms)} · cache {units.percent(summary.cache_read_share)}"
    )


def mean_line(mean: TaskMean) -> str:
    """``python/chunks: 3.0 steps, 12.1k tok, $0.010, 4.2s (2/3 67% (21–94%) of all attempts;
    1 error run(s))``: means over scored runs, then the pass rate over all attempts with its
    95% Wilson interval."""
    errors = f"; {mean.errors} error run(s)" if mean.errors else ""
    return (
        f"  {mean.suite}/{mean.task}: {mean.mean_steps if mean.mean_steps is not None else '-'} steps, "
        f"{units.tokens(mean.mean_tokens)} tok, "
        f"{units.cost(mean.mean_cost_usd, mean.cost_incomplete)}, "
        f"{units.seconds(mean.mean_duration_ms)} "
        f"({units.rate(mean.passes, mean.runs)} of all attempts{errors})"
    )


def tool_calls_line(summary: Summary, runs: int) -> str | None:
    """``tool calls: read_file 12 (4.0/run) · todo_write 0 (0.0/run)``; None when none were counted."""
    if not summary.tool_calls or not runs:
        return None
    counts = " · ".join(
        f"{name} {count} ({count / runs:.1f}/run)" for name, count in summary.tool_calls.items()
    )
    return f"tool calls: {counts}"


def _tag(result: TaskResult, repeats: bool) -> str:
    return f"{result.suite}/{result.task}" + (f" #{result.repeat}" if repeats else "")


def _notes(results: list[TaskResult], repeats: bool) -> list[str]:
    """Runs whose change touches test-runner internals, task strengths, and files the judge
    left out."""
    lines: list[str] = []
    suspicious = [r for r in results if r.suspicious]
    if suspicious:
        lines += [
            "",
            "suspicious (the change reaches into the test runner; read it before trusting):",
        ]
        for result in suspicious:
            shown = "; ".join(result.suspicious[:3])
            more = f" (+{len(result.suspicious) - 3} more)" if len(result.suspicious) > 3 else ""
            lines.append(f"  {result.shown_status} {_tag(result, repeats)}: {shown}{more}"[:160])
    strengths = {f"{r.suite}/{r.task}": r.strength for r in results if r.strength is not None}
    if strengths:
        lines += ["", "task strength (share of wrong variants of the reference the tests reject):"]
        cells = [f"{tag} {value:.2f}" for tag, value in sorted(strengths.items())]
        lines += [f"  {' · '.join(cells[i : i + 4])}" for i in range(0, len(cells), 4)]
    left_out = [r for r in results if r.left_out]
    if left_out:
        lines += ["", "not judged (files of the agent's folder the judge left out):"]
        for result in left_out:
            shown = "; ".join(result.left_out[:3])
            more = f" (+{len(result.left_out) - 3} more)" if len(result.left_out) > 3 else ""
            lines.append(f"  {_tag(result, repeats)}: {shown}{more}"[:160])
    return lines


RUN_NOTE_PREFIXES = ("retried: ", "replaced: ", "budget: ")


def _is_run_note(warning: str) -> bool:
    """Warnings about how this report was made (retries, replaced attempts) that the table shows."""
    return warning.startswith(RUN_NOTE_PREFIXES)


class TableFormatter(ReportFormatter):
    """The default terminal report."""

    name = "table"

    def render(self, report: Report) -> str:
        """Rows, reasons for failures, means for repeats, totals and both rates."""
        lines: list[str] = []
        repeats = report.settings.repeat > 1
        if report.results:
            rows = [HEADERS, *(_row(r, repeats) for r in report.results)]
            lines += _layout(rows)
        failures = [r for r in report.results if r.failure]
        if failures:
            lines.append("")
            for result in failures:
                tag = _tag(result, repeats)
                lines.append(
                    f"{result.status.value} {tag}: {(result.failure or '')[:REASON_WIDTH]}"
                )
        lines += _notes(report.results, repeats)
        if repeats and report.tasks:
            lines += ["", "means per task (error runs left out):"]
            lines += [mean_line(mean) for mean in report.tasks]
        lines += pass_k_lines(report)
        lines += flaky_lines(report)
        lines += ["", totals_line(report.summary), rates_line(report.summary)]
        tools = tool_calls_line(report.summary, len(report.results))
        if tools:
            lines.append(tools)
        if report.batch:
            lines.append(f"batch: wall time {units.seconds(report.wall_ms)}")
        if report.interrupted:
            lines.append("interrupted: this report is partial")
        if report.summary.totals_incomplete:
            lines.append(
                f"totals incomplete: {report.summary.interrupted} run(s) interrupted "
                "(out of both rates; what they spent so far is counted)"
            )
        if report.regrade_of:
            lines.append(f"regrade of {report.regrade_of} (usage and cost are that run's)")
        lines += [f"warning: {warning}" for warning in report.warnings if _is_run_note(warning)]
        return "\n".join(lines) + "\n"

    def render_pair(
        self, a: Report, b: Report, run_dirs: tuple[Path | None, Path | None] = (None, None)
    ) -> str:
        """``garuda compare``'s text."""
        from garuda_evals.report.compare import compare

        return compare(a, b)
