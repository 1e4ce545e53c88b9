"""The executor contract: one backend is chosen per run, one executor is made per task."""

from __future__ import annotations

import tempfile
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Literal

if TYPE_CHECKING:
    from garuda_evals.plugins.manager import PluginRegistry

DEFAULT_OUTPUT_LIMIT = 256 * 1024


@dataclass(frozen=True)
class CommandResult:
    """What a finished command did. ``exit_code`` is None when it was killed at the limit."""

    exit_code: int | None
    output: str
    timed_out: bool
    duration_ms: int
    truncated: bool = False


@dataclass(frozen=True)
class Availability:
    """Whether a backend works on this machine, and if not, why (one line)."""

    ok: bool
    reason: str = ""


@dataclass(frozen=True)
class ExecutorInfo:
    """What report.json records about the executor that ran."""

    name: str
    kind: Literal["host", "os"]
    denies: tuple[str, ...] = ()
    detail: str = ""


@dataclass(frozen=True)
class SandboxPolicy:
    """What a task's commands may touch.

    ``workspace`` is the only writable folder (with a private temporary folder).
    ``read_only`` paths stay readable even inside ``hidden`` ones (a repo task's linked
    ``node_modules`` inside the hidden checkout); ``hidden`` paths must not be readable.
    ``env_allow`` names the variables that pass into the sandbox.
    """

    workspace: Path
    read_only: tuple[Path, ...] = ()
    hidden: tuple[Path, ...] = ()
    env_allow: tuple[str, ...] = ()
    allow_loopback: bool = True
    extra: Mapping[str, str] = field(default_factory=dict)


class Executor(ABC):
    """Runs shell commands for one task. Every command is killed as a tree at its limit."""

    @abstractmethod
    async def run(
        self,
        command: str,
        *,
        cwd: Path,
        env: Mapping[str, str],
        timeout_s: float,
        output_limit: int = DEFAULT_OUTPUT_LIMIT,
        pass_fds: Sequence[int] = (),
    ) -> CommandResult:
        """Run ``command`` with ``bash -c`` in ``cwd``; never raises for a non-zero exit.

        ``pass_fds`` stay open, at the same numbers, in the command (an agent CLI's channel
        to its metering proxy).
        """

    @abstractmethod
    def info(self) -> ExecutorInfo:
        """Name, kind and what this executor denies, for the report."""

    async def aclose(self) -> None:  # noqa: B027 - optional hook with a no-op default
        """Kill whatever this executor still runs. Called when the task ends.

        It may be called more than once (after the agent's turn, and again at clean-up), and
        a call that has begun is never cut short by Ctrl-C or a time limit (the harness
        shields it), so a close that only runs once may wait for what it stops.
        """


class ExecutorBackend(ABC):
    """The object an entry point in ``garuda_evals.executors`` names.

    Example::

        [project.entry-points."garuda_evals.executors"]
        bwrap = "garuda_evals_sandbox_bwrap:BwrapBackend"
    """

    name: ClassVar[str]
    kind: ClassVar[Literal["host", "os"]]
    description: ClassVar[str]

    def __init__(self, plugins: PluginRegistry | None = None) -> None:
        self.plugins = plugins

    @abstractmethod
    def availability(self) -> Availability:
        """Whether this backend works here. Must be cheap and must not raise."""

    @abstractmethod
    def create(self, policy: SandboxPolicy) -> Executor:
        """A fresh executor for one task."""

    def info(self) -> ExecutorInfo:
        """What this backend denies, for report.json (default: ask a throwaway executor)."""
        return self.create(SandboxPolicy(workspace=Path(tempfile.gettempdir()))).info()
