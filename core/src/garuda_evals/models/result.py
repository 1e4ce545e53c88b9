"""The result of one run of one task."""

from enum import StrEnum

from pydantic import Field

from garuda_evals.models.base import Model
from garuda_evals.models.usage import Usage


class Status(StrEnum):
    """PASS and FAIL are scored; ERR (the run threw) is left out of the scored rate;
    INT (stopped by Ctrl-C before it finished) is left out of both rates."""

    PASS = "PASS"
    FAIL = "FAIL"
    ERR = "ERR"
    INTERRUPTED = "INT"


class CheckOutcome(Model):
    """What the check command did and what the runner's own report said."""

    command: str
    exit_code: int | None = None
    timed_out: bool = False
    duration_ms: int = 0
    tests_ran: int | None = None
    """The task's own tests that ran (the judge's canaries are not counted); None: no report."""
    tests_failed: int | None = None
    """The task's own tests that failed, as the FAIL reason counts them."""
    evidence: str = ""
    """The counts, the canaries' outcomes apart, and what else the runner said."""
    output_tail: str = ""
    held_out: dict[str, str] = Field(
        default_factory=dict,
        description="held-out tests by the task's names -> outcome ('missing': not reported)",
    )
    held_out_canaries: dict[str, str] = Field(
        default_factory=dict, description="canaries shaped like the held-out tests -> outcome"
    )


class TaskResult(Model):
    """One row of the report: everything the table shows, plus why it failed."""

    task: str
    suite: str
    title: str = ""
    repeat: int = 1
    status: Status
    steps: int | None = 0
    """Model calls; None when the agent does not report them (a command agent)."""
    usage: Usage = Field(default_factory=Usage)
    duration_ms: int = 0
    agent_duration_ms: int = 0
    stop_reason: str = ""
    failure: str | None = None
    protected_changes: list[str] = Field(default_factory=list)
    check: CheckOutcome | None = None
    transcript: str | None = None
    workspace: str | None = None
    notices: list[str] = Field(default_factory=list)
    tool_calls: dict[str, int] = Field(
        default_factory=dict, description="calls per tool name; offered tools never called are 0"
    )
    usage_by_model: dict[str, Usage] = Field(
        default_factory=dict, description="usage per model spec, each priced by its own model"
    )
    left_out: list[str] = Field(
        default_factory=list, description="agent files not judged, each 'path: why'"
    )
    suspicious: list[str] = Field(
        default_factory=list, description="lines of the change that touch test-runner internals"
    )
    change: str | None = Field(
        default=None,
        description="the agent's final change as a git binary diff, relative to the run folder",
    )
    node: str | None = Field(
        default=None, description="the node that ran it (a cluster backend); None: this machine"
    )
    retried: bool = Field(
        default=False, description="rerun by --retry-errors after an error run (ERR)"
    )
    strength: float | None = Field(
        default=None, description="the task's strength (see Task.strength), when measured"
    )

    @property
    def passed(self) -> bool:
        """True for PASS."""
        return self.status is Status.PASS

    @property
    def shown_status(self) -> str:
        """The status as reports show it: ``PASS?`` for a PASS the tamper lint marked."""
        return "PASS?" if self.passed and self.suspicious else self.status.value
