"""The Seatbelt executor: every command under ``sandbox-exec`` with the task's profile."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from garuda_evals.api import (
    DEFAULT_OUTPUT_LIMIT,
    CommandResult,
    Executor,
    ExecutorInfo,
    SandboxPolicy,
    remove_tree,
    run_in_group,
)
from garuda_evals_sandbox.options import host_network
from garuda_evals_sandbox.paths import canonical
from garuda_evals_sandbox_seatbelt.profile import build_argv, build_profile

DENIES = (
    "network but localhost",
    "unix sockets",
    "writes outside the folder",
    "home secrets",
    "reads outside the allow-list",
    "installed suite data",
)


def describe(allow_loopback: bool) -> str:
    """One line for report.json."""
    loopback = "the host's localhost allowed" if allow_loopback else "no localhost"
    return f"sandbox-exec, deny-default profile; {loopback}; no PID namespace"


class SeatbeltExecutor(Executor):
    """Runs ``bash -c`` under a deny-default Seatbelt profile.

    The environment is the allow-listed one it is given, with TMPDIR set to a private
    folder that lives until ``aclose``. A time limit kills the process group; Seatbelt has
    no PID namespace, so a ``setsid`` daemon is not reached by it.
    """

    def __init__(self, policy: SandboxPolicy) -> None:
        self.policy = policy
        self._private_tmp: Path | None = None

    def _tmp(self) -> Path:
        if self._private_tmp is None:
            self._private_tmp = canonical(tempfile.mkdtemp(prefix="garuda-seatbelt-tmp-"))
        return self._private_tmp

    def environment(self, env: Mapping[str, str]) -> dict[str, str]:
        """The variables the command sees: ``env`` as the caller allow-listed it, and TMPDIR."""
        return {**env, "TMPDIR": f"{self._tmp()}/"}

    def argv(self, command: str, env: Mapping[str, str]) -> list[str]:
        """The sandbox-exec command line for ``command``."""
        return build_argv(build_profile(self.policy, env, self._tmp()), command)

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
        """Run ``bash -c command`` under the profile."""
        return await run_in_group(
            self.argv(command, env),
            cwd=canonical(cwd),
            env=self.environment(env),
            timeout_s=timeout_s,
            output_limit=output_limit,
            pass_fds=pass_fds,
        )

    def info(self) -> ExecutorInfo:
        """Seatbelt's name and what it denies."""
        denies = (*DENIES, "hidden paths") if self.policy.hidden else DENIES
        if host_network(self.policy):
            denies = tuple(d for d in denies if not d.startswith("network"))
        return ExecutorInfo(
            name="seatbelt", kind="os", denies=denies, detail=describe(self.policy.allow_loopback)
        )

    async def aclose(self) -> None:
        """Remove the private TMPDIR."""
        if self._private_tmp is not None:
            remove_tree(self._private_tmp)
            self._private_tmp = None
