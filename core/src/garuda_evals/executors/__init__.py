"""Executors run commands for the agent and the check: on the host or in an OS sandbox."""

from garuda_evals.executors.base import (
    Availability,
    CommandResult,
    Executor,
    ExecutorBackend,
    ExecutorInfo,
    SandboxPolicy,
)

__all__ = [
    "Availability",
    "CommandResult",
    "Executor",
    "ExecutorBackend",
    "ExecutorInfo",
    "SandboxPolicy",
]
