"""The agent contract: prompt, workspace, executor and limits in; steps, usage and stop out."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from garuda_evals.executors.base import Executor
from garuda_evals.models.events import EventKind
from garuda_evals.models.settings import RunSettings
from garuda_evals.models.task import Task
from garuda_evals.models.usage import Usage

if TYPE_CHECKING:
    from garuda_evals.plugins.manager import PluginRegistry

EventSink = Callable[[EventKind, str], None]
"""Called as ``events(kind, message)`` for a live line: kind is 'tool', 'retry' or 'notice'."""


NOT_REPORTED = "the agent had reported nothing when the run stopped: its usage is unknown"


def _not_reported() -> Usage:
    return Usage.unreported(NOT_REPORTED)


@dataclass
class Progress:
    """What the turn used so far. Agents update it as they go, so that a run that times out,
    throws or is stopped (Ctrl-C, the spend cap) still reports its steps, tokens and cost.

    It starts unknown (steps None, usage unreported): an agent that never updates it is
    shown as ``?``, never as a known zero. An agent that calls no model sets
    ``Usage.known_zero()`` and 0 steps.
    """

    steps: int | None = None
    usage: Usage = field(default_factory=_not_reported)
    tool_calls: dict[str, int] = field(default_factory=dict)
    usage_by_model: dict[str, Usage] = field(default_factory=dict)


@dataclass
class AgentTurn:
    """One agent turn on one task.

    ``env`` is the allow-listed environment for commands the agent runs through
    ``executor``. ``transcript`` is the JSON-lines file the agent writes every request,
    response, tool call and tool result to. The runner enforces ``timeout_s`` from outside.
    """

    task: Task
    prompt: str
    workspace: Path
    executor: Executor
    env: Mapping[str, str]
    timeout_s: float
    transcript: Path
    settings: RunSettings
    events: EventSink = field(default=lambda kind, message: None)
    progress: Progress = field(default_factory=Progress)


@dataclass(frozen=True)
class RunLimits:
    """Limits an agent sets for its run, recorded in report.json beside the user's settings."""

    parallel: int | None = None
    task_timeout_s: float | None = None
    batch: bool = False


@dataclass
class AgentOutcome:
    """What the turn did. A step is one model call; None when the agent cannot tell."""

    steps: int | None
    usage: Usage
    stop_reason: str
    notices: list[str] = field(default_factory=list)
    tool_calls: dict[str, int] = field(default_factory=dict)
    usage_by_model: dict[str, Usage] = field(default_factory=dict)


BUDGET_STOP = "budget"
"""The stop reason of a turn cut short by the run's spend cap: the row is interrupted (INT)."""


class Agent(ABC):
    """Runs turns. One instance may serve several tasks at once: keep state per turn."""

    @abstractmethod
    async def run(self, turn: AgentTurn) -> AgentOutcome:
        """Work on ``turn.task`` in ``turn.workspace``; raise only for an error run (ERR)."""

    def budget_spent(self) -> str | None:
        """Why no further task of the run should start (its spend cap is reached), or None.

        The runner asks before starting each job; a job not started gets no row.
        """
        return None

    def read_only_paths(self) -> tuple[Path, ...]:
        """Folders the agent's commands must read inside the OS sandbox even where it hides
        their parent (for example tools the agent installed under the home folder)."""
        return ()


class AgentFactory(ABC):
    """The object an entry point in ``garuda_evals.agents`` names.

    Example::

        [project.entry-points."garuda_evals.agents"]
        garuda = "garuda_evals_agent:GarudaAgentFactory"
    """

    name: ClassVar[str]
    description: ClassVar[str]
    uses_model: ClassVar[bool] = False
    accepts: ClassVar[frozenset[str]] = frozenset()
    """Flags of other owners this agent honours too (``--max-steps`` for an agent CLI)."""

    def __init__(self, plugins: PluginRegistry | None = None) -> None:
        self.plugins = plugins

    def check_settings(self, settings: RunSettings) -> None:  # noqa: B027 - optional
        """Raise UsageError for a value this agent cannot use. Runs before any agent call.

        Options scoped to other agents are refused before this, by one rule for all.
        """

    def preflight(self, settings: RunSettings) -> None:  # noqa: B027 - optional
        """Before the first task: the model endpoint answers, the agent's program exists.

        Raise GarudaError naming the cause; the run then exits 1 without running a task.
        """

    def limits(self, settings: RunSettings) -> RunLimits | None:
        """Limits this agent needs for the run (a batch API's parallelism), or None."""
        return None

    def describe(self, settings: RunSettings) -> Mapping[str, str]:
        """What report.json records about this agent (for example the model)."""
        return {"agent": self.name}

    @abstractmethod
    def create(self, settings: RunSettings) -> Agent:
        """The agent for this run."""
