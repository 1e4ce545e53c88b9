"""The single-file HTML report: Jinja2 templates, Pygments for diffs, inline SVG charts.

The page loads nothing: styles are inline, there is no script, and a Content-Security-Policy
forbids scripts and remote loads, so an agent's output shown in it stays text.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TextIO

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter as PygmentsHtml
from pygments.lexers import DiffLexer

from garuda_evals.api import (
    Report,
    ReportFormatter,
    Status,
    Summary,
    TableFormatter,
    TaskMean,
    TaskResult,
    compare,
    format_cost,
    format_interval,
    format_percent,
    format_rate,
    format_seconds,
    format_tokens,
    format_usage_tokens,
    setting_differences,
    totals_line,
)
from garuda_evals_reports.charts import ChartRow, bar_chart
from garuda_evals_reports.text import agent_words, run_file, run_name
from garuda_evals_reports.transcript_view import Entry, read_transcript

HTML_FILE = "report.html"
DIFF_CHARS = 200_000
OUTPUT_CHARS = 20_000


@dataclass(frozen=True)
class RunView:
    """One run of one task as the page shows it."""

    anchor: str
    name: str
    result: TaskResult
    tokens: str
    cost: str
    time: str
    transcript: list[Entry] | None
    transcript_note: str
    diff: Markup | None
    diff_note: str


@dataclass(frozen=True)
class GridRow:
    """A task's runs by repeat; ``disagree`` when its repeats did not all end alike."""

    name: str
    cells: list[RunView | None]
    disagree: bool


@dataclass(frozen=True)
class Rate:
    """A pass rate with its counts and 95% interval (when report.json has it)."""

    label: str
    passed: int
    total: int
    rate: str
    interval: str


@cache
def _environment() -> Environment:
    return Environment(
        loader=PackageLoader("garuda_evals_reports", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def diff_css() -> str:
    """Pygments' style rules for the ``.diff`` blocks."""
    return str(PygmentsHtml(style="default").get_style_defs(".diff"))


def highlight_diff(text: str) -> Markup:
    """A unified diff as highlighted, escaped HTML (cut at ``DIFF_CHARS``)."""
    if len(text) > DIFF_CHARS:
        text = text[:DIFF_CHARS] + f"\n… ({len(text) - DIFF_CHARS} more characters in the file)\n"
    return Markup(highlight(text, DiffLexer(), PygmentsHtml(cssclass="diff", wrapcode=True)))


def _interval(bounds: tuple[float, float] | None) -> str:
    return "" if bounds is None else f"95% CI {format_interval(bounds)}"


def rates(summary: Summary) -> list[Rate]:
    """The scored rate (errors left out) and the attempted rate (errors count as failures)."""
    return [
        Rate(
            "scored",
            summary.passed,
            summary.scored,
            format_percent(summary.scored_rate),
            _interval(summary.scored_rate_interval),
        ),
        Rate(
            "attempted",
            summary.passed,
            summary.attempted,
            format_percent(summary.attempted_rate),
            _interval(summary.attempted_rate_interval),
        ),
    ]


def _change(result: TaskResult, run_dir: Path | None) -> tuple[Markup | None, str]:
    recorded = getattr(result, "change", None)
    if not recorded:
        return None, "no change recorded"
    path = run_file(recorded, run_dir)
    if path is None:
        return None, f"change file not found: {recorded}"
    text = path.read_text(encoding="utf-8", errors="replace")
    if not text.strip():
        return None, "the agent changed nothing"
    return highlight_diff(text), ""


def _transcript(result: TaskResult, run_dir: Path | None) -> tuple[list[Entry] | None, str]:
    if not result.transcript:
        return None, "no transcript"
    path = run_file(result.transcript, run_dir)
    if path is None:
        return None, f"transcript not found: {result.transcript}"
    return read_transcript(path), ""


def run_views(report: Report, run_dir: Path | None, *, details: bool = True) -> list[RunView]:
    """Every run in report order; ``details`` reads transcripts and changes."""
    repeats = report.settings.repeat > 1
    views = []
    for index, result in enumerate(report.results):
        transcript, transcript_note = _transcript(result, run_dir) if details else (None, "")
        diff, diff_note = _change(result, run_dir) if details else (None, "")
        views.append(
            RunView(
                anchor=f"run-{index + 1}",
                name=run_name(result, repeats),
                result=result,
                tokens=format_usage_tokens(result.usage),
                cost=format_cost(result.usage.cost_usd, result.usage.cost_incomplete),
                time=format_seconds(result.duration_ms),
                transcript=transcript,
                transcript_note=transcript_note,
                diff=diff,
                diff_note=diff_note,
            )
        )
    return views


def grid(views: list[RunView], repeats: int) -> list[GridRow]:
    """Task × repeat; tasks whose repeats disagree first, then those that failed, then passes."""
    by_task: dict[str, list[RunView | None]] = {}
    for view in views:
        key = f"{view.result.suite}/{view.result.task}"
        cells = by_task.setdefault(key, [None] * repeats)
        if 1 <= view.result.repeat <= repeats:
            cells[view.result.repeat - 1] = view
    rows = []
    for name, cells in by_task.items():
        statuses = {cell.result.status for cell in cells if cell is not None}
        rows.append(GridRow(name, cells, disagree=len(statuses) > 1))

    def order(row: GridRow) -> int:
        if row.disagree:
            return 0
        return 2 if all(c is None or c.result.status is Status.PASS for c in row.cells) else 1

    return sorted(rows, key=order)


def _label(mean: TaskMean) -> str:
    return f"{mean.suite}/{mean.task}"


def _chart_text(mean: TaskMean | None, metric: str, value: float | None) -> str:
    """``-`` when the arm has no scored run of the task, ``?`` when the mean is not known
    (some run's usage or steps unreported), a cost that is a minimum as such."""
    if mean is None or mean.runs == mean.errors:
        return "-"
    if value is None:
        return "?"
    if metric == "mean_cost_usd":
        return format_cost(value, mean.cost_incomplete)
    if metric == "mean_tokens":
        return format_tokens(value)
    if metric == "mean_duration_ms":
        return format_seconds(value)
    return f"{value:.1f}"


def charts(arms: list[Report], names: tuple[str, ...] = ("",)) -> list[Markup]:
    """Mean steps, tokens, cost and time per task; one bar per arm."""
    keys = list(dict.fromkeys((m.suite, m.task) for report in arms for m in report.tasks))
    means = [{(m.suite, m.task): m for m in report.tasks} for report in arms]

    def rows(metric: str) -> list[ChartRow]:
        found = []
        for key in keys:
            cells = [arm.get(key) for arm in means]
            values = [getattr(mean, metric) if mean else None for mean in cells]
            texts = [
                _chart_text(mean, metric, value) for mean, value in zip(cells, values, strict=True)
            ]
            found.append(ChartRow(f"{key[0]}/{key[1]}", values, texts))
        return found

    return [
        bar_chart("steps per run (mean)", rows("mean_steps"), names),
        bar_chart("tokens per run (mean)", rows("mean_tokens"), names),
        bar_chart("cost per run (mean)", rows("mean_cost_usd"), names),
        bar_chart("time per run (mean)", rows("mean_duration_ms"), names),
    ]


def render_report(report: Report, run_dir: Path | None) -> str:
    """One run's page."""
    views = run_views(report, run_dir)
    return (
        _environment()
        .get_template("report.html.j2")
        .render(
            report=report,
            agent=agent_words(report.agent),
            rates=rates(report.summary),
            totals=totals_line(report.summary),
            grid=grid(views, report.settings.repeat),
            repeats=report.settings.repeat,
            runs=views,
            charts=charts([report]),
            diff_css=diff_css(),
            output_chars=OUTPUT_CHARS,
        )
    )


@dataclass(frozen=True)
class PairRow:
    """One task in both arms: counts, and B minus A of rate and means."""

    name: str
    a: str
    b: str
    rate: str
    steps: str
    tokens: str
    cost: str
    time: str
    direction: str


def _delta(a: float | None, b: float | None, show: str) -> str:
    """B − A, or ``?`` when an arm's value is not known (as ``garuda compare`` shows it)."""
    if a is None or b is None:
        return "?"
    difference = b - a
    sign = "+" if difference > 0 else "−" if difference < 0 else "±"
    size = abs(difference)
    if show == "pp":
        return f"{sign}{size * 100:.0f} pp"
    if show == "tokens":
        return sign + format_tokens(size)
    if show == "cost":
        return f"{sign}${size:.3f}"
    if show == "time":
        return sign + format_seconds(size)
    return f"{sign}{size:.1f}"


def _known_cost(mean: TaskMean) -> float | None:
    """A task's mean cost, or None when it is only a minimum (``garuda compare``'s rule)."""
    return None if mean.cost_incomplete else mean.mean_cost_usd


def pair_rows(a: Report, b: Report) -> list[PairRow]:
    """Per task: each arm's passes and B − A of pass rate, steps, tokens, cost and time."""
    means_a = {(m.suite, m.task): m for m in a.tasks}
    means_b = {(m.suite, m.task): m for m in b.tasks}
    rows = []
    for key in dict.fromkeys([*means_a, *means_b]):
        left, right = means_a.get(key), means_b.get(key)
        rate_a = left.passes / left.runs if left and left.runs else None
        rate_b = right.passes / right.runs if right and right.runs else None
        direction = ""
        if rate_a is not None and rate_b is not None and rate_a != rate_b:
            direction = "up" if rate_b > rate_a else "down"
        name = f"{key[0]}/{key[1]}"
        if left is None or right is None:  # a task of one arm only: nothing to pair
            one = left or right
            assert one is not None
            shown = format_rate(one.passes, one.runs)
            in_a, in_b = (shown, "-") if left else ("-", shown)
            rows.append(PairRow(name, in_a, in_b, "-", "-", "-", "-", "-", direction))
            continue
        rows.append(
            PairRow(
                name=name,
                a=format_rate(left.passes, left.runs),
                b=format_rate(right.passes, right.runs),
                rate=_delta(rate_a, rate_b, "pp"),
                steps=_delta(left.mean_steps, right.mean_steps, ""),
                tokens=_delta(left.mean_tokens, right.mean_tokens, "tokens"),
                cost=_delta(_known_cost(left), _known_cost(right), "cost"),
                time=_delta(left.mean_duration_ms, right.mean_duration_ms, "time"),
                direction=direction,
            )
        )
    return sorted(rows, key=lambda row: 0 if row.direction else 1)


def render_pair_page(a: Report, b: Report) -> str:
    """The A/B page: what differs, both arms' rates, paired differences per task, charts."""
    return (
        _environment()
        .get_template("pair.html.j2")
        .render(
            a=a,
            b=b,
            differences=setting_differences(a, b),
            rates_a=rates(a.summary),
            rates_b=rates(b.summary),
            rows=pair_rows(a, b),
            grid_a=grid(run_views(a, None, details=False), a.settings.repeat),
            grid_b=grid(run_views(b, None, details=False), b.settings.repeat),
            charts=charts([a, b], ("A", "B")),
            totals_a=totals_line(a.summary),
            totals_b=totals_line(b.summary),
            few_repeats=min(a.settings.repeat, b.settings.repeat) < 3,
            paired=compare(a, b, force=True),
            diff_css="",
        )
    )


class HtmlFormatter(ReportFormatter):
    """``--report-format html``: report.html in the run folder; the table on the terminal."""

    name = "html"

    def render(self, report: Report) -> str:
        """The page, finding transcripts and changes by the paths report.json holds."""
        return render_report(report, None)

    def render_run(self, report: Report, run_dir: Path | None) -> str:
        """The page, finding transcripts and changes in ``run_dir`` too."""
        return render_report(report, run_dir)

    def render_pair(
        self, a: Report, b: Report, run_dirs: tuple[Path | None, Path | None] = (None, None)
    ) -> str:
        """The A/B page."""
        return render_pair_page(a, b)

    def publish(self, report: Report, run_dir: Path, *, stdout: TextIO, stderr: TextIO) -> None:
        """Write report.html beside report.json and print the terminal table."""
        path = run_dir / HTML_FILE
        path.write_text(self.render_run(report, run_dir), encoding="utf-8")
        stdout.write(TableFormatter().render(report))
        print(f"html: {path}", file=stderr)
