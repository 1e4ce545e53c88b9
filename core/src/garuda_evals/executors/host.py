"""The host executor: no sandbox; every command's processes end with it.

On Linux each command runs under a child subreaper (``executors/reaper.py``) that kills
descendants which left the process group (``setsid``, double forks, daemons) when the
command ends, at its time limit and on cancellation. Elsewhere (macOS) the process group is
killed, which a ``setsid`` daemon survives: use an OS sandbox there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from garuda_evals.executors.base import (
    DEFAULT_OUTPUT_LIMIT,
    Availability,
    CommandResult,
    Executor,
    ExecutorBackend,
    ExecutorInfo,
    SandboxPolicy,
)
from garuda_evals.executors.process import run_in_group

SHELL = "/bin/bash"


class HostExecutor(Executor):
    """Runs commands directly on this machine with the environment it is given."""

    def __init__(self, policy: SandboxPolicy | None = None) -> None:
        self.policy = policy

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
        """Run ``bash -c command`` on the host; no process of it outlives this call (Linux)."""
        return await run_in_group(
            [SHELL, "-c", command],
            cwd=cwd,
            env=env,
            timeout_s=timeout_s,
            output_limit=output_limit,
            reap=True,
            pass_fds=pass_fds,
        )

    def info(self) -> ExecutorInfo:
        """The host denies nothing."""
        return ExecutorInfo(name="host", kind="host", denies=(), detail="no sandbox")


class HostBackend(ExecutorBackend):
    """Entry point ``host`` of ``garuda_evals.executors``: always available."""

    name = "host"
    kind = "host"
    description = "run commands on the host, with no sandbox"

    def availability(self) -> Availability:
        """The host always works."""
        return Availability(ok=True)

    def create(self, policy: SandboxPolicy) -> Executor:
        """A host executor (the policy is recorded, not enforced)."""
        return HostExecutor(policy)
