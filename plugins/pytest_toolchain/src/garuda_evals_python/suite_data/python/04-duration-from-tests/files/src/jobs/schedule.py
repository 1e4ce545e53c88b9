"""Jobs with an interval, and a scheduler that says which jobs are due."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from jobs.duration import parse_duration


@dataclass
class Job:
    """A named action that runs every ``every`` (a duration such as ``"1h30m"``)."""

    name: str
    every: str
    action: Callable[[], object] = lambda: None
    last_run: datetime | None = None

    @property
    def interval(self) -> timedelta:
        interval = parse_duration(self.every)
        if interval <= timedelta(0):
            raise ValueError(f"job {self.name!r}: interval must be positive, got {self.every!r}")
        return interval

    def next_run(self, now: datetime) -> datetime:
        """When the job is due next; a job that never ran is due now."""
        if self.last_run is None:
            return now
        return self.last_run + self.interval


@dataclass
class Scheduler:
    """Holds jobs and runs the ones that are due."""

    jobs: list[Job] = field(default_factory=list)

    def add(self, name: str, every: str, action: Callable[[], object] = lambda: None) -> Job:
        job = Job(name, every, action)
        job.interval  # noqa: B018 - validate the interval when the job is added
        self.jobs.append(job)
        return job

    def due(self, now: datetime) -> list[Job]:
        return [job for job in self.jobs if job.next_run(now) <= now]

    def run_due(self, now: datetime) -> list[str]:
        """Run every due job; return their names in the order they ran."""
        ran = []
        for job in self.due(now):
            job.action()
            job.last_run = now
            ran.append(job.name)
        return ran
