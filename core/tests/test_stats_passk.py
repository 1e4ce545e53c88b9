"""pass@k and pass^k against brute force, and how they reach the summary, table and JSON."""

from __future__ import annotations

import itertools

import pytest

from garuda_evals.models.report import ExecutorRecord, Report
from garuda_evals.models.result import Status, TaskResult
from garuda_evals.models.settings import RunSettings
from garuda_evals.report.summary import summarize, task_means
from garuda_evals.report.table import TableFormatter
from garuda_evals.stats import passk


def brute(n: int, c: int, k: int) -> tuple[float, float]:
    """Share of the k-subsets of n runs (c of them passing) with any pass / with all passing."""
    runs = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(runs, k))
    return (
        sum(any(s) for s in subsets) / len(subsets),
        sum(all(s) for s in subsets) / len(subsets),
    )


@pytest.mark.parametrize("n", range(1, 9))
def test_pass_at_k_and_pass_hat_k_equal_brute_force(n: int) -> None:
    for c in range(n + 1):
        for k in range(1, n + 1):
            at, hat = brute(n, c, k)
            assert passk.pass_at_k(n, c, k) == pytest.approx(at)
            assert passk.pass_hat_k(n, c, k) == pytest.approx(hat)


def test_the_biased_plug_in_estimate_is_not_what_we_compute() -> None:
    # 1 - (1 - c/n)^k overstates pass@k: 1 pass in 3 runs gives 0.556 at k=2, the truth is 0.667
    # for the subsets, while the plug-in for pass^k (c/n)^k gives 0.111 against 0.
    assert passk.pass_at_k(3, 1, 2) == pytest.approx(2 / 3)
    assert passk.pass_hat_k(3, 1, 2) == 0.0


def test_bad_arguments() -> None:
    for n, c, k in [(3, 4, 1), (3, 1, 0), (3, 1, 4), (3, -1, 1)]:
        with pytest.raises(ValueError):
            passk.pass_at_k(n, c, k)


def test_overall_is_the_mean_over_tasks_up_to_the_fewest_runs() -> None:
    at, hat = passk.overall([(3, 1), (2, 2), (0, 0)])
    assert sorted(at) == [1, 2]
    assert at[1] == pytest.approx((1 / 3 + 1) / 2)
    assert hat[2] == pytest.approx((0 + 1) / 2)
    assert passk.overall([(0, 0)]) == ({}, {})


def _runs(spec: dict[str, list[Status]]) -> list[TaskResult]:
    results = []
    for repeat in range(1, max(len(v) for v in spec.values()) + 1):
        for task, statuses in spec.items():
            if repeat <= len(statuses):
                results.append(
                    TaskResult(task=task, suite="s", repeat=repeat, status=statuses[repeat - 1])
                )
    return results


def report_of(results: list[TaskResult], repeat: int) -> Report:
    """A report of ``results`` as the runner would build it."""
    return Report(
        run_id="r",
        started_at="",
        finished_at="",
        wall_ms=0,
        settings=RunSettings(repeat=repeat),
        agent={"name": "command"},
        executor=ExecutorRecord(name="host", kind="host"),
        versions={},
        summary=summarize(results),
        tasks=task_means(results),
        results=results,
    )


P, F, E = Status.PASS, Status.FAIL, Status.ERR


def test_summary_task_means_and_table_with_repeats() -> None:
    results = _runs({"a": [P, F, P], "b": [P, P, P], "c": [F, E, F]})
    report = report_of(results, 3)
    a, b, c = report.tasks
    assert a.pass_at_k == pytest.approx({1: 2 / 3, 2: 1.0, 3: 1.0})
    assert a.pass_hat_k == pytest.approx({1: 2 / 3, 2: 1 / 3, 3: 0.0})
    assert a.flaky and not b.flaky and not c.flaky
    # the error run of c is left out: 2 scored runs, so overall k stops at 2
    assert c.pass_at_k == {1: 0.0, 2: 0.0}
    assert sorted(report.summary.pass_at_k) == [1, 2]
    assert report.summary.pass_hat_k[2] == pytest.approx((1 / 3 + 1 + 0) / 3)
    data = report.to_json_dict()
    assert data["tasks"][0]["passAtK"] == pytest.approx({"1": 2 / 3, "2": 1.0, "3": 1.0})
    assert data["tasks"][0]["flaky"] is True
    assert Report.model_validate(data).tasks[0].pass_hat_k == a.pass_hat_k
    text = TableFormatter().render(report)
    assert "  task       pass@1  pass@2  pass@3  pass^2  pass^3" in text
    assert "  s/a        67%     100%    100%    33%     0%" in text
    assert "  s/c        0%      0%      -       0%      -" in text
    assert "  all tasks  56%     67%     -       44%     -" in text
    assert "  s/a: runs flipped (2/3 scored runs passed)" in text
    assert "s/b:" not in text.split("flaky")[1]


def test_no_pass_k_without_repeats() -> None:
    report = report_of(_runs({"a": [P], "b": [F]}), 1)
    assert report.summary.pass_at_k == {} and report.tasks[0].pass_at_k == {}
    text = TableFormatter().render(report)
    assert "pass@" not in text and "flaky" not in text
