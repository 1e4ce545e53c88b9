"""Summaries: both pass rates, honest totals and per-task means."""

from __future__ import annotations

from collections.abc import Sequence
from statistics import mean

from garuda_evals.models.report import Summary, TaskMean
from garuda_evals.models.result import Status, TaskResult
from garuda_evals.models.usage import Usage
from garuda_evals.stats import passk
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


def _scored(runs: Sequence[TaskResult]) -> list[TaskResult]:
    return [r for r in runs if r.status in (Status.PASS, Status.FAIL)]


def by_task(results: Sequence[TaskResult]) -> dict[tuple[str, str], list[TaskResult]]:
    """Runs grouped by ``(suite, task)`` in first-seen order."""
    grouped: dict[tuple[str, str], list[TaskResult]] = {}
    for result in results:
        grouped.setdefault((result.suite, result.task), []).append(result)
    return grouped


def _has_repeats(results: Sequence[TaskResult]) -> bool:
    return any(r.repeat > 1 for r in results)


def _overall_pass_k(results: Sequence[TaskResult]) -> tuple[dict[int, float], dict[int, float]]:
    if not _has_repeats(results):
        return {}, {}
    counts = []
    for runs in by_task(results).values():
        scored = _scored(runs)
        counts.append((len(scored), sum(1 for r in scored if r.passed)))
    return passk.overall(counts)


def tool_call_totals(results: Sequence[TaskResult]) -> dict[str, int]:
    """Calls per tool name over ``results``, in first-seen order (zero counts kept)."""
    totals: dict[str, int] = {}
    for result in results:
        for name, count in result.tool_calls.items():
            totals[name] = totals.get(name, 0) + count
    return totals


def mean_tool_calls(results: Sequence[TaskResult]) -> dict[str, float]:
    """Mean calls per tool name over ``results`` (a run without the tool counts as 0)."""
    if not results:
        return {}
    return {name: count / len(results) for name, count in tool_call_totals(results).items()}


def usage_by_model(results: Sequence[TaskResult]) -> dict[str, Usage]:
    """Usage per model spec over ``results`` (runs that name their models)."""
    totals: dict[str, Usage] = {}
    for result in results:
        for model, usage in result.usage_by_model.items():
            totals[model] = totals.get(model, Usage()) + usage
    return totals


def summarize(results: Sequence[TaskResult]) -> Summary:
    """Scored runs leave errors out; all attempted runs count errors as failures.

    Interrupted runs (INT) are in neither rate; their usage and cost are in the totals,
    which are then marked incomplete.
    """
    pass_at_k, pass_hat_k = _overall_pass_k(results)
    interrupted = sum(1 for r in results if r.status is Status.INTERRUPTED)
    attempted = len(results) - interrupted
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
        steps=sum(r.steps or 0 for r in results),
        steps_known=all(r.steps is not None for r in results),
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
        pass_at_k=pass_at_k,
        pass_hat_k=pass_hat_k,
        interrupted=interrupted,
        suspicious_passes=sum(1 for r in results if r.passed and r.suspicious),
        totals_incomplete=interrupted > 0,
        tool_calls=tool_call_totals(results),
        usage_by_model=usage_by_model(results),
    )


def _mean_or_none(values: list[float]) -> float | None:
    return mean(values) if values else None


def task_means(results: Sequence[TaskResult]) -> list[TaskMean]:
    """One row per task in first-seen order; error and interrupted runs are left out of the
    means."""
    repeats = _has_repeats(results)
    means: list[TaskMean] = []
    for (suite, task), runs in by_task(results).items():
        finished = [r for r in runs if r.status is not Status.INTERRUPTED]
        scored = [r for r in finished if r.status is not Status.ERR]
        outcomes = [r.passed for r in _scored(runs)]
        pass_at_k, pass_hat_k = passk.per_k(len(outcomes), sum(outcomes)) if repeats else ({}, {})
        tokens_known = all(r.usage.tokens_known for r in scored)
        means.append(
            TaskMean(
                task=task,
                suite=suite,
                runs=len(finished),
                passes=sum(1 for r in runs if r.passed),
                errors=len(finished) - len(scored),
                mean_steps=(
                    _mean_or_none([r.steps for r in scored if r.steps is not None])
                    if all(r.steps is not None for r in scored)
                    else None
                ),
                mean_tokens=(
                    _mean_or_none([r.usage.total_tokens for r in scored]) if tokens_known else None
                ),
                mean_cost_usd=_mean_or_none([r.usage.cost_usd for r in scored]),
                mean_duration_ms=_mean_or_none([r.duration_ms for r in scored]),
                cost_incomplete=any(r.usage.cost_incomplete for r in scored),
                pass_at_k=pass_at_k,
                pass_hat_k=pass_hat_k,
                flaky=len(set(outcomes)) > 1,
                scored_rate_interval=_interval(sum(outcomes), len(outcomes)),
                attempted_rate_interval=_interval(sum(1 for r in runs if r.passed), len(runs)),
                mean_tool_calls=mean_tool_calls(scored),
            )
        )
    return means
