"""Every per-task pass rate that is shown carries its 95% Wilson interval."""

from __future__ import annotations

import pytest

from garuda_evals.models.report import ExecutorRecord, Report
from garuda_evals.models.result import Status, TaskResult
from garuda_evals.models.settings import RunSettings
from garuda_evals.report import units
from garuda_evals.report.compare import compare_reports, render
from garuda_evals.report.summary import summarize, task_means
from garuda_evals.report.table import TableFormatter, mean_line
from garuda_evals.stats.intervals import wilson

P, F, E = Status.PASS, Status.FAIL, Status.ERR


def report(run_id: str, statuses: dict[str, list[Status]]) -> Report:
    """A report as the runner builds it, from each task's statuses in repeat order."""
    results = [
        TaskResult(task=task, suite="s", repeat=i + 1, status=status)
        for task, runs in statuses.items()
        for i, status in enumerate(runs)
    ]
    built = Report(
        run_id=run_id,
        started_at="",
        finished_at="",
        wall_ms=0,
        settings=RunSettings(repeat=max(len(runs) for runs in statuses.values())),
        agent={"agent": "garuda"},
        executor=ExecutorRecord(name="bwrap", kind="os"),
        versions={},
        toolchains={},
        summary=summarize(results),
        tasks=task_means(results),
        results=results,
    )
    for mean in built.tasks:
        mean.task_version = "v1"
    return built


@pytest.mark.parametrize(
    ("passes", "runs", "shown"),
    [
        (0, 3, "0/3 0% (0–56%)"),
        (3, 5, "3/5 60% (23–88%)"),
        (2, 3, "2/3 67% (21–94%)"),
        (3, 3, "3/3 100% (44–100%)"),
        (0, 0, "0/0"),
    ],
)
def test_a_rate_shows_its_count_percent_and_wilson_interval(
    passes: int, runs: int, shown: str
) -> None:
    assert units.rate(passes, runs) == shown


def test_task_means_carry_both_intervals_in_report_json() -> None:
    built = report("a", {"t0": [P, F, E], "t1": [F, F, F]})
    first, second = built.tasks
    assert first.scored_rate_interval == pytest.approx(wilson(1, 2))
    assert first.attempted_rate_interval == pytest.approx(wilson(1, 3))
    assert second.scored_rate_interval == pytest.approx(wilson(0, 3))
    data = built.to_json_dict()["tasks"][1]
    assert data["scoredRateInterval"] == pytest.approx(list(wilson(0, 3)))
    assert Report.model_validate(built.to_json_dict()).tasks[0] == first


def test_the_table_means_lines_show_each_task_interval() -> None:
    built = report("a", {"t0": [F, F, F], "t1": [P, F, P]})
    text = TableFormatter().render(built)
    assert "means per task" in text
    assert mean_line(built.tasks[0]).endswith("(0/3 0% (0–56%) of all attempts)")
    assert mean_line(built.tasks[1]).endswith("(2/3 67% (21–94%) of all attempts)")
    assert mean_line(built.tasks[0]) in text


def test_compare_per_task_pass_columns_show_each_arm_interval() -> None:
    a = report("a", {"t0": [F, F, F], "t1": [P, P, P]})
    b = report("b", {"t0": [P, F, P], "t1": [P, P, P]})
    text = render(compare_reports(a, b), a, b)
    rows = {line.split()[0]: line for line in text.splitlines() if line.startswith("s/t")}
    assert "0/3 0% (0–56%)" in rows["s/t0"] and "2/3 67% (21–94%)" in rows["s/t0"]
    assert rows["s/t1"].count("3/3 100% (44–100%)") == 2
