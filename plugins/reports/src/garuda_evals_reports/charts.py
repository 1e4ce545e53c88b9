"""Inline SVG bar charts: one row per task, one bar per series (a run, or arms A and B)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

WIDTH = 520
LABEL_WIDTH = 180
VALUE_WIDTH = 140
BAR_HEIGHT = 14
GAP = 8


@dataclass(frozen=True)
class ChartRow:
    """A task's label and its value in each series (None: no bar), with the text shown beside
    each bar (``?`` for a value not known, ``≥ $X (incomplete)`` for a minimum)."""

    label: str
    values: Sequence[float | None]
    texts: Sequence[str]


def bar_chart(title: str, rows: Sequence[ChartRow], series: Sequence[str] = ("",)) -> Markup:
    """An SVG of horizontal bars scaled to the largest value; labels are escaped."""
    known = [v for row in rows for v in row.values if v is not None]
    top = max(known, default=0.0) or 1.0
    span = WIDTH - LABEL_WIDTH - VALUE_WIDTH
    group = len(series) * BAR_HEIGHT + GAP
    height = 24 + len(rows) * group
    parts = [
        f'<svg class="chart" role="img" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" '
        f'height="{height}" viewBox="0 0 {WIDTH} {height}">',
        f"<title>{escape(title)}</title>",
        f'<text class="chart-title" x="0" y="14">{escape(title)}</text>',
    ]
    for index, row in enumerate(rows):
        y = 24 + index * group
        label = row.label if len(row.label) <= 28 else row.label[:27] + "…"
        parts.append(
            f'<text class="chart-label" x="{LABEL_WIDTH - 6}" y="{y + BAR_HEIGHT - 3}" '
            f'text-anchor="end">{escape(label)}</text>'
        )
        cells = zip(series, row.values, row.texts, strict=True)
        for arm, (name, value, text) in enumerate(cells):
            bar_y = y + arm * BAR_HEIGHT
            length = 0.0 if not value else max(1.0, span * value / top)
            tip = f"{row.label}{' ' + name if name else ''}: {text}"
            parts.append(
                f'<rect class="bar bar-{arm}" x="{LABEL_WIDTH}" y="{bar_y}" '
                f'width="{length:.1f}" height="{BAR_HEIGHT - 2}"><title>{escape(tip)}</title></rect>'
            )
            parts.append(
                f'<text class="chart-value" x="{LABEL_WIDTH + length + 4:.1f}" '
                f'y="{bar_y + BAR_HEIGHT - 3}">{escape((name + " " if name else "") + text)}</text>'
            )
    parts.append("</svg>")
    return Markup("".join(parts))
