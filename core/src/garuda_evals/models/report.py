"""report.json: the run's settings, versions, summary, per-task means and every result."""

from __future__ import annotations

from pydantic import Field

from garuda_evals.models.base import Model
from garuda_evals.models.result import TaskResult
from garuda_evals.models.settings import RunSettings
from garuda_evals.models.usage import Usage

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
    steps_known: bool = True
    """False when some agent did not report its steps: ``steps`` is then a minimum."""
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
    pass_at_k: dict[int, float] = Field(
        default_factory=dict, description="k -> mean over tasks of pass@k (scored runs, repeats)"
    )
    pass_hat_k: dict[int, float] = Field(
        default_factory=dict, description="k -> mean over tasks of pass^k (scored runs, repeats)"
    )
    interrupted: int = 0
    """Runs stopped by Ctrl-C (INT): out of both rates, their usage and cost in the totals."""
    suspicious_passes: int = 0
    """PASS runs whose change the tamper lint marked (``PASS?``): in ``passed``, unless the
    run was ``--strict`` (then they are FAIL)."""
    totals_incomplete: bool = False
    """True when a run was interrupted: the totals are what was spent until then."""
    tool_calls: dict[str, int] = Field(
        default_factory=dict, description="calls per tool name over all runs"
    )
    usage_by_model: dict[str, Usage] = Field(
        default_factory=dict, description="usage and cost per model spec over all runs"
    )


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
    pass_at_k: dict[int, float] = Field(default_factory=dict)
    pass_hat_k: dict[int, float] = Field(default_factory=dict)
    flaky: bool = Field(default=False, description="its scored runs both passed and failed")
    scored_rate_interval: tuple[float, float] | None = Field(
        default=None, description="95% Wilson interval of passes over scored runs"
    )
    attempted_rate_interval: tuple[float, float] | None = Field(
        default=None, description="95% Wilson interval of passes over all attempted runs"
    )
    task_version: str = Field(default="", description="digest of the task's definition")
    self_test: str | None = Field(
        default=None,
        description="the stored reference self-test of this task version: stable, flaky, broken",
    )
    mean_tool_calls: dict[str, float] = Field(
        default_factory=dict, description="mean calls per tool name (error runs left out)"
    )


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
    backend: str = Field(default="local", description="the run backend (--backend) that ran it")
    task_timeout_s: float = 600.0
    settings: RunSettings
    agent: dict[str, str]
    executor: ExecutorRecord
    versions: dict[str, str]
    toolchains: dict[str, dict[str, str]] = Field(default_factory=dict)
    toolchain_probes: dict[str, str] = Field(default_factory=dict)
    """Per toolchain: ``probed`` (its probe ran in this run) or ``cached`` (a passing probe of an
    earlier run, with the same programs, versions and environment, was trusted)."""
    summary: Summary
    tasks: list[TaskMean]
    results: list[TaskResult]
    warnings: list[str] = Field(default_factory=list)
    regrade_of: str | None = None
    """The run id this report regrades (``garuda regrade``); usage and cost are that run's."""
    stopped_by: str | None = None
    """Why the run stopped before every job started (the spend cap); None: it did not."""
    replaced: list[TaskResult] = Field(default_factory=list)
    """Earlier attempts replaced by ``--resume`` (INT) or ``--retry-errors`` (ERR)."""
