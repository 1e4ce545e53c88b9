"""Rate intervals: known values, edge cases, and coverage measured over the whole p range."""

from __future__ import annotations

import functools
import math
import random

import pytest

from garuda_evals.models.result import Status, TaskResult
from garuda_evals.report.summary import summarize
from garuda_evals.report.table import rates_line
from garuda_evals.stats.intervals import binomial_cdf, clopper_pearson, wilson, z_value


def wald(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The large-sample interval the issue warns against: the coverage checks must reject it."""
    p = successes / n
    half = z_value(confidence) * math.sqrt(p * (1 - p) / n)
    return (max(0.0, p - half), min(1.0, p + half))


def exact_coverage(method: object, n: int, p: float) -> float:
    """P(interval covers p) summed over every outcome of Binomial(n, p)."""
    total = 0.0
    for k in range(n + 1):
        low, high = _cached(method, k, n)
        if low <= p <= high:
            total += math.comb(n, k) * p**k * (1 - p) ** (n - k)
    return total


def simulated_coverage(method: object, n: int, p: float, trials: int, rng: random.Random) -> float:
    """Share of simulated evals (n runs passing with probability p) whose interval covers p."""
    hits = 0
    for _ in range(trials):
        k = sum(rng.random() < p for _ in range(n))
        low, high = _cached(method, k, n)
        hits += low <= p <= high
    return hits / trials


@functools.cache
def _cached(method: object, k: int, n: int) -> tuple[float, float]:
    assert callable(method)
    result: tuple[float, float] = method(k, n)
    return result


P_GRID = [i / 100 for i in range(2, 99)]


def test_wilson_known_values() -> None:
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(1, 1) == pytest.approx((0.2065, 1.0), abs=1e-4)


def test_clopper_pearson_known_values() -> None:
    assert clopper_pearson(0, 10) == pytest.approx((0.0, 0.3085), abs=1e-4)
    assert clopper_pearson(5, 10) == pytest.approx((0.1871, 0.8129), abs=1e-4)
    assert clopper_pearson(17, 18) == pytest.approx((0.7271, 0.9986), abs=1e-4)


@pytest.mark.parametrize(
    ("successes", "n", "confidence"), [(1, 0, 0.95), (-1, 3, 0.95), (4, 3, 0.95), (1, 3, 1.0)]
)
def test_bad_arguments_are_refused(successes: int, n: int, confidence: float) -> None:
    with pytest.raises(ValueError):
        wilson(successes, n, confidence)
    with pytest.raises(ValueError):
        clopper_pearson(successes, n, confidence)


def test_binomial_cdf_matches_direct_sum() -> None:
    assert binomial_cdf(2, 5, 0.3) == pytest.approx(0.83692)
    assert binomial_cdf(-1, 5, 0.3) == 0.0
    assert binomial_cdf(5, 5, 0.3) == 1.0


@pytest.mark.parametrize("n", [3, 5, 10, 20, 50])
def test_clopper_pearson_never_covers_less_than_its_confidence(n: int) -> None:
    worst = min(exact_coverage(clopper_pearson, n, p) for p in P_GRID)
    assert worst >= 0.95 - 1e-9


@pytest.mark.parametrize("n", [3, 5, 10, 20, 50])
def test_wilson_covers_about_its_confidence_on_average(n: int) -> None:
    coverages = [exact_coverage(wilson, n, p) for p in P_GRID]
    assert sum(coverages) / len(coverages) >= 0.945
    # Wilson dips near 0 and 1 for small n but stays far above the large-sample interval
    assert min(coverages) >= 0.80


@pytest.mark.parametrize("n", [5, 10, 20])
def test_the_coverage_checks_reject_the_large_sample_interval(n: int) -> None:
    coverages = [exact_coverage(wald, n, p) for p in P_GRID]
    assert sum(coverages) / len(coverages) < 0.945 or min(coverages) < 0.80


def test_coverage_by_simulation_agrees() -> None:
    rng = random.Random(15)
    for n, p in [(5, 0.5), (10, 0.8), (20, 0.9)]:
        assert simulated_coverage(wilson, n, p, 2000, rng) >= 0.93
        assert simulated_coverage(clopper_pearson, n, p, 2000, rng) >= 0.94
    # the same simulation catches an interval that is too narrow
    assert simulated_coverage(wald, 10, 0.9, 2000, rng) < 0.90


def _results(statuses: list[Status]) -> list[TaskResult]:
    return [TaskResult(task=f"t{i}", suite="s", status=s) for i, s in enumerate(statuses)]


def test_summary_carries_both_intervals_and_the_table_shows_them() -> None:
    summary = summarize(_results([Status.PASS] * 5 + [Status.ERR]))
    assert summary.scored_rate_interval == pytest.approx(wilson(5, 5))
    assert summary.attempted_rate_interval == pytest.approx(wilson(5, 6))
    data = summary.to_json_dict()
    assert data["scoredRateInterval"] == pytest.approx(list(wilson(5, 5)))
    assert data["attemptedRateInterval"] == pytest.approx(list(wilson(5, 6)))
    assert rates_line(summary) == (
        "5/5 scored runs passed (100%) · 5/6 of all attempted runs (83%) · 1 error run(s)"
        " · 95% CI scored 57–100%, attempted 44–97%"
    )


def test_no_runs_no_interval() -> None:
    summary = summarize([])
    assert summary.scored_rate_interval is None and summary.attempted_rate_interval is None
    assert "CI" not in rates_line(summary)
    only_errors = summarize(_results([Status.ERR]))
    assert only_errors.scored_rate_interval is None
    assert only_errors.attempted_rate_interval == pytest.approx(wilson(0, 1))
    assert rates_line(only_errors).endswith("95% CI attempted 0–79%")


def test_old_reports_without_intervals_still_load() -> None:
    data = summarize(_results([Status.PASS])).to_json_dict()
    del data["scoredRateInterval"], data["attemptedRateInterval"]
    loaded = type(summarize([])).model_validate(data)
    assert loaded.scored_rate_interval is None
