"""Typed records that cross a file or process boundary."""

from garuda_evals.models.base import Model
from garuda_evals.models.result import CheckOutcome, Status, TaskResult
from garuda_evals.models.task import CheckSpec, Solution, Task
from garuda_evals.models.usage import Usage

__all__ = [
    "CheckOutcome",
    "CheckSpec",
    "Model",
    "Solution",
    "Status",
    "Task",
    "TaskResult",
    "Usage",
]
