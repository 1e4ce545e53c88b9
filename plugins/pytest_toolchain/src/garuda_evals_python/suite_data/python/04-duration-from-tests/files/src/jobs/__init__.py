"""A tiny in-process job scheduler: jobs that run every so often."""

from jobs.duration import parse_duration
from jobs.schedule import Job, Scheduler

__all__ = ["Job", "Scheduler", "parse_duration"]
