"""The numbers of an A/B comparison: per-task paired differences, intervals and a verdict.

Every difference is B − A. Tasks are paired by suite and task id; a task's repeats stay
together (its pass rate and means are over its scored runs, error runs left out).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pydantic import Field

from garuda_evals.models.base import Model
from garuda_evals.models.report import Report
from garuda_evals.models.result import Status, TaskResult
from garuda_evals.stats import paired

ALPHA = 0.05
POWER = 0.8
POWER_DIFFERENCE = 0.10
Key = tuple[str, str]


class TaskDiff(Model):
    """One task in both arms, and its B − A differences (None when unknown in an arm)."""

    task: str
    a_runs: int
    a_passes: int
    b_runs: int
    b_passes: int
    pass_rate_difference: float | None
    steps_difference: float | None
    tokens_difference: float | None
    cost_usd_difference: float | None
    duration_ms_difference: float | None


class MetricDiff(Model):
    """A metric's mean per task in each arm, over the tasks where both arms know it."""

    metric: str
    tasks: int
    a: float | None
    b: float | None
    difference: float | None
    interval: tuple[float, float] | None = Field(
        default=None, description="95% paired bootstrap interval of the difference, over tasks"
    )


class Comparison(Model):
    """What ``garuda compare`` prints, as data (``--json``)."""

    a_run: str
    b_run: str
    setting_differences: list[str]
    measure_differences: list[str]
    forced: bool
    only_in_a: list[str]
    only_in_b: list[str]
    tasks: list[TaskDiff]
    metrics: list[MetricDiff]
    run_pairs: int
    a_only_passes: int
    b_only_passes: int
    p_value: float
    significant: bool
    verdict: str
    repeats_needed: int | None
    power: str


def _name(key: Key) -> str:
    return f"{key[0]}/{key[1]}"


def _scored(results: Sequence[TaskResult], key: Key) -> list[TaskResult]:
    runs = [
        r for r in results if (r.suite, r.task) == key and r.status in (Status.PASS, Status.FAIL)
    ]
    return sorted(runs, key=lambda r: r.repeat)


def _cost(run: TaskResult) -> float | None:
    return None if run.usage.cost_incomplete else run.usage.cost_usd


def _tokens(run: TaskResult) -> float | None:
    return run.usage.total_tokens if run.usage.tokens_known else None


METRICS: dict[str, Callable[[TaskResult], float | None]] = {
    "pass_rate": lambda r: 1.0 if r.passed else 0.0,
    "steps": lambda r: r.steps,
    "tokens": _tokens,
    "cost_usd": _cost,
    "duration_ms": lambda r: r.duration_ms,
}


def _values(runs: Sequence[TaskResult], get: Callable[[TaskResult], float | None]) -> list[float]:
    """A metric of every run, or nothing when some run does not know it (unknown usage)."""
    values = [get(run) for run in runs]
    return [] if any(v is None for v in values) else [v for v in values if v is not None]


def _metric(name: str, groups: list[paired.Group]) -> MetricDiff:
    known = [(a, b) for a, b in groups if a and b]
    if not known:
        return MetricDiff(metric=name, tasks=0, a=None, b=None, difference=None)
    return MetricDiff(
        metric=name,
        tasks=len(known),
        a=paired.mean([paired.mean(a) for a, _ in known]),
        b=paired.mean([paired.mean(b) for _, b in known]),
        difference=paired.mean_difference(known),
        interval=paired.bootstrap_interval(known),
    )


def _difference(group: paired.Group) -> float | None:
    a, b = group
    return paired.mean(b) - paired.mean(a) if a and b else None


def _points(value: float) -> str:
    return f"{value * 100:+.0f}"


def verdict(rate: MetricDiff, p_value: float, discordant: int) -> tuple[bool, str]:
    """One line in words: which arm passes more, by how much, and how sure; or no difference."""
    if rate.difference is None or rate.interval is None:
        return False, "no pass rate to compare (no task has scored runs in both arms)"
    low, high = rate.interval
    evidence = (
        f"{_points(rate.difference)} points, 95% CI {_points(low)} to {_points(high)}; "
        f"exact test on {discordant} discordant run pair(s): p = {p_value:.3g}"
    )
    if p_value < ALPHA and rate.difference != 0:
        arm = "B" if rate.difference > 0 else "A"
        return True, f"{arm} passes more: B − A {evidence}"
    return False, f"no detectable difference in pass rate: B − A {evidence}"


def power_line(
    pairs: int, discordant: int, pooled: float | None, tasks: int
) -> tuple[int | None, str]:
    """Repeats per task an exact test needs to detect a 10-point difference, from this noise."""
    if pairs == 0 or tasks == 0 or pooled is None:
        return None, "power: no run pairs to estimate it from"
    # the noise two arms at the pooled pass rate show; a large real difference inflates the
    # observed discordance, so that caps it
    independent = 2 * pooled * (1 - pooled)
    discordance = min(discordant / pairs, independent) if discordant else independent
    needed = paired.pairs_needed(POWER_DIFFERENCE, discordance, alpha=ALPHA, power=POWER)
    repeats = -(-needed // tasks)
    return repeats, (
        f"power: to detect a {POWER_DIFFERENCE * 100:.0f}-point difference in pass rate "
        f"({POWER * 100:.0f}% power, α {ALPHA}), about {repeats} repeat(s) per task "
        f"({needed} run pairs over {tasks} task(s), taking {discordance * 100:.0f}% of run "
        f"pairs to disagree)"
    )


def build_comparison(
    a: Report, b: Report, settings: list[str], measure: list[str], forced: bool
) -> Comparison:
    """Pair the tasks of ``a`` and ``b`` and compute every difference, interval and test."""
    means_a = {(m.suite, m.task): m for m in a.tasks}
    means_b = {(m.suite, m.task): m for m in b.tasks}
    common = [key for key in means_a if key in means_b]
    tasks: list[TaskDiff] = []
    groups: dict[str, list[paired.Group]] = {name: [] for name in METRICS}
    pairs = a_only = b_only = 0
    for key in common:
        runs_a, runs_b = _scored(a.results, key), _scored(b.results, key)
        for run_a, run_b in zip(runs_a, runs_b, strict=False):
            pairs += 1
            a_only += run_a.passed and not run_b.passed
            b_only += run_b.passed and not run_a.passed
        task = {n: (_values(runs_a, get), _values(runs_b, get)) for n, get in METRICS.items()}
        for name, group in task.items():
            groups[name].append(group)
        tasks.append(
            TaskDiff(
                task=_name(key),
                a_runs=len(runs_a),
                a_passes=sum(r.passed for r in runs_a),
                b_runs=len(runs_b),
                b_passes=sum(r.passed for r in runs_b),
                pass_rate_difference=_difference(task["pass_rate"]),
                steps_difference=_difference(task["steps"]),
                tokens_difference=_difference(task["tokens"]),
                cost_usd_difference=_difference(task["cost_usd"]),
                duration_ms_difference=_difference(task["duration_ms"]),
            )
        )
    metrics = [_metric(name, values) for name, values in groups.items()]
    rate = metrics[0]
    p_value = paired.sign_test(b_only, a_only)
    significant, text = verdict(rate, p_value, a_only + b_only)
    pooled = None if rate.a is None or rate.b is None else (rate.a + rate.b) / 2
    repeats, power = power_line(pairs, a_only + b_only, pooled, rate.tasks)
    return Comparison(
        a_run=a.run_id,
        b_run=b.run_id,
        setting_differences=settings,
        measure_differences=measure,
        forced=forced,
        only_in_a=[_name(k) for k in means_a if k not in means_b],
        only_in_b=[_name(k) for k in means_b if k not in means_a],
        tasks=tasks,
        metrics=metrics,
        run_pairs=pairs,
        a_only_passes=a_only,
        b_only_passes=b_only,
        p_value=p_value,
        significant=significant,
        verdict=text,
        repeats_needed=repeats,
        power=power,
    )
