"""The result of one run of one task."""

from enum import StrEnum

from pydantic import Field

from garuda_evals.models.base import Model
from garuda_evals.models.usage import Usage


class Status(StrEnum):
    """PASS and FAIL are scored; ERR (the run threw) is left out of the scored rate."""

    PASS = "PASS"
    FAIL = "FAIL"
    ERR = "ERR"


class CheckOutcome(Model):
    """What the check command did and what the runner's own report said."""

    command: str
    exit_code: int | None = None
    timed_out: bool = False
    duration_ms: int = 0
    tests_ran: int | None = None
    tests_failed: int | None = None
    evidence: str = ""
    output_tail: str = ""


class TaskResult(Model):
    """One row of the report: everything the table shows, plus why it failed."""

    task: str
    suite: str
    title: str = ""
    repeat: int = 1
    status: Status
    steps: int = 0
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
    left_out: list[str] = Field(
        default_factory=list, description="agent files not judged, each 'path: why'"
    )
    suspicious: list[str] = Field(
        default_factory=list, description="lines of the change that touch test-runner internals"
    )
    strength: float | None = Field(
        default=None, description="the task's strength (see Task.strength), when measured"
    )

    @property
    def passed(self) -> bool:
        """True for PASS."""
        return self.status is Status.PASS
