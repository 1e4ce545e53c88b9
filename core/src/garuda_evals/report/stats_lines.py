"""The table's statistics sections: pass@k and pass^k per task, and flaky tasks."""

from __future__ import annotations

from garuda_evals.models.report import Report, TaskMean
from garuda_evals.report import units


def layout(rows: list[tuple[str, ...]], indent: str = "  ") -> list[str]:
    """Rows as left-aligned columns, the first row being the headers."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        indent + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


def _cells(at: dict[int, float], hat: dict[int, float], top: int) -> tuple[str, ...]:
    shown = [units.percent(at.get(k)) for k in range(1, top + 1)]
    return (*shown, *(units.percent(hat.get(k)) for k in range(2, top + 1)))


def pass_k_lines(report: Report) -> list[str]:
    """A table of pass@k and pass^k for k = 1..repeats, per task and over all tasks."""
    top = max((max(m.pass_at_k, default=0) for m in report.tasks), default=0)
    if top < 2:
        return []
    headers = (
        "task",
        *(f"pass@{k}" for k in range(1, top + 1)),
        *(f"pass^{k}" for k in range(2, top + 1)),
    )
    rows = [headers]
    rows += [(f"{m.suite}/{m.task}", *_cells(m.pass_at_k, m.pass_hat_k, top)) for m in report.tasks]
    summary = report.summary
    if summary.pass_at_k:
        rows.append(("all tasks", *_cells(summary.pass_at_k, summary.pass_hat_k, top)))
    return [
        "",
        "pass@k (at least one of k runs passes) and pass^k (all k pass); scored runs, unbiased:",
        *layout(rows),
    ]


def _self_test_note(mean: TaskMean) -> str:
    if mean.self_test == "flaky":
        return "its reference solution flipped in the suite's self-test"
    if mean.self_test == "broken":
        return "its reference solution failed in the suite's self-test"
    return ""


def flaky_lines(report: Report) -> list[str]:
    """Tasks whose runs flipped between pass and fail here, or whose stored self-test did."""
    lines: list[str] = []
    for mean in report.tasks:
        reasons = []
        if mean.flaky:
            scored = max(mean.pass_at_k, default=mean.runs - mean.errors)
            reasons.append(f"runs flipped ({mean.passes}/{scored} scored runs passed)")
        note = _self_test_note(mean)
        if note:
            reasons.append(note)
        if reasons:
            lines.append(f"  {mean.suite}/{mean.task}: {'; '.join(reasons)}")
    if not lines:
        return []
    return ["", "flaky (a pass or fail of these tasks says little):", *lines]
