"""Summaries: both pass rates, honest totals and per-task means."""

from __future__ import annotations

from collections.abc import Sequence
from statistics import mean

from garuda_evals.models.report import Summary, TaskMean
from garuda_evals.models.result import Status, TaskResult
from garuda_evals.models.usage import Usage
from garuda_evals.stats.intervals import wilson


def _rate(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


def _interval(successes: int, n: int) -> tuple[float, float] | None:
    return wilson(successes, n) if n else None


def total_usage(results: Sequence[TaskResult]) -> Usage:
    """Usage of every run, error runs included (they still cost)."""
    total = Usage()
    for result in results:
        total = total + result.usage
    return total


def summarize(results: Sequence[TaskResult]) -> Summary:
    """Scored runs leave errors out; all attempted runs count errors as failures."""
    attempted = len(results)
    errors = sum(1 for r in results if r.status is Status.ERR)
    passed = sum(1 for r in results if r.status is Status.PASS)
    usage = total_usage(results) if results else Usage()
    cache_base = usage.input_tokens + usage.cache_read_tokens + usage.cache_write_tokens
    return Summary(
        attempted=attempted,
        errors=errors,
        scored=attempted - errors,
        passed=passed,
        scored_rate=_rate(passed, attempted - errors),
        attempted_rate=_rate(passed, attempted),
        steps=sum(r.steps for r in results),
        input_tokens=usage.input_tokens,
        cache_read_tokens=usage.cache_read_tokens,
        cache_write_tokens=usage.cache_write_tokens,
        output_tokens=usage.output_tokens,
        reasoning_tokens=usage.reasoning_tokens,
        tokens=usage.total_tokens if usage.tokens_known else None,
        tokens_known=usage.tokens_known,
        unreported_tokens=usage.unreported_tokens,
        cache_read_share=(
            _rate(usage.cache_read_tokens, cache_base) if usage.tokens_known else None
        ),
        cost_usd=usage.cost_usd,
        cost_incomplete=usage.cost_incomplete,
        duration_ms=sum(r.duration_ms for r in results),
        scored_rate_interval=_interval(passed, attempted - errors),
        attempted_rate_interval=_interval(passed, attempted),
    )


def _mean_or_none(values: list[float]) -> float | None:
    return mean(values) if values else None


def task_means(results: Sequence[TaskResult]) -> list[TaskMean]:
    """One row per task in first-seen order; error runs are left out of the means."""
    by_task: dict[tuple[str, str], list[TaskResult]] = {}
    for result in results:
        by_task.setdefault((result.suite, result.task), []).append(result)
    means: list[TaskMean] = []
    for (suite, task), runs in by_task.items():
        scored = [r for r in runs if r.status is not Status.ERR]
        tokens_known = all(r.usage.tokens_known for r in scored)
        means.append(
            TaskMean(
                task=task,
                suite=suite,
                runs=len(runs),
                passes=sum(1 for r in runs if r.passed),
                errors=len(runs) - len(scored),
                mean_steps=_mean_or_none([r.steps for r in scored]),
                mean_tokens=(
                    _mean_or_none([r.usage.total_tokens for r in scored]) if tokens_known else None
                ),
                mean_cost_usd=_mean_or_none([r.usage.cost_usd for r in scored]),
                mean_duration_ms=_mean_or_none([r.duration_ms for r in scored]),
                cost_incomplete=any(r.usage.cost_incomplete for r in scored),
            )
        )
    return means
