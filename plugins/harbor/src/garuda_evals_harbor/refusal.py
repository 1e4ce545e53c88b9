"""A task that cannot run here, and the one line that says why."""

from __future__ import annotations


class Refused(Exception):
    """A task that cannot be a task here: ``reason`` is one line naming the file and what."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
