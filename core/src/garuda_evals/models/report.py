"""report.json: the run's settings, versions, summary, per-task means and every result."""

from __future__ import annotations

from pydantic import Field

from garuda_evals.models.base import Model
from garuda_evals.models.result import TaskResult
from garuda_evals.models.settings import RunSettings

SCHEMA_VERSION = 1


class Summary(Model):
    """Both pass rates and honest totals. A rate is None when its denominator is zero."""

    attempted: int
    errors: int
    scored: int
    passed: int
    scored_rate: float | None
    attempted_rate: float | None
    steps: int
    input_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    output_tokens: int
    reasoning_tokens: int
    tokens: int | None
    tokens_known: bool
    unreported_tokens: int
    cache_read_share: float | None
    cost_usd: float
    cost_incomplete: bool
    duration_ms: int
    scored_rate_interval: tuple[float, float] | None = None
    attempted_rate_interval: tuple[float, float] | None = None


class TaskMean(Model):
    """Means over a task's repeats; error runs are left out of the means."""

    task: str
    suite: str
    runs: int
    passes: int
    errors: int
    mean_steps: float | None
    mean_tokens: float | None
    mean_cost_usd: float | None
    mean_duration_ms: float | None
    cost_incomplete: bool


class ExecutorRecord(Model):
    """The executor that ran, why it was chosen, and what it denied."""

    name: str
    kind: str
    denies: list[str] = Field(default_factory=list)
    detail: str = ""
    chosen_because: str = ""


class Report(Model):
    """The whole run, as saved in ``.garuda/evals/<run-id>/report.json``."""

    schema_version: int = SCHEMA_VERSION
    run_id: str
    started_at: str
    finished_at: str
    wall_ms: int
    interrupted: bool = False
    batch: bool = False
    parallel: int = 1
    task_timeout_s: float = 600.0
    settings: RunSettings
    agent: dict[str, str]
    executor: ExecutorRecord
    versions: dict[str, str]
    toolchains: dict[str, dict[str, str]] = Field(default_factory=dict)
    summary: Summary
    tasks: list[TaskMean]
    results: list[TaskResult]
    warnings: list[str] = Field(default_factory=list)
