"""The bubblewrap executor: every command in fresh namespaces under the task's policy."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from garuda_evals.api import (
    DEFAULT_OUTPUT_LIMIT,
    CommandResult,
    Executor,
    ExecutorInfo,
    SandboxPolicy,
    remove_soon,
    run_in_group,
)
from garuda_evals_sandbox.options import host_network
from garuda_evals_sandbox.paths import canonical
from garuda_evals_sandbox_bwrap.argv import build_argv, plan_layout
from garuda_evals_sandbox_bwrap.probe import userns_message
from garuda_evals_sandbox_bwrap.seccomp import Arch, filter_fd

DENIES = (
    "network",
    "unix sockets",
    "writes outside the folder",
    "home secrets",
    "reads outside the allow-list",
    "installed suite data",
)


def describe(version: str, arch: str, mount_proc: bool) -> str:
    """One line for report.json: version, loopback, seccomp and /proc."""
    proc = "own /proc" if mount_proc else "no own /proc (refused here)"
    return f"bwrap {version or '?'}; own loopback only; seccomp {arch}; {proc}"


LAUNCHER_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}


class BwrapExecutor(Executor):
    """Runs ``bash -c`` inside bwrap; the private /tmp lives until ``aclose``.

    A time limit kills bwrap's process group; bwrap's ``--die-with-parent`` and the PID
    namespace then end every process inside, ``setsid`` daemons included.
    """

    def __init__(
        self,
        policy: SandboxPolicy,
        *,
        launcher: Sequence[str],
        arch: Arch,
        mount_proc: bool,
        version: str = "",
    ) -> None:
        self.policy = policy
        self.launcher = tuple(launcher)
        self.arch = arch
        self.mount_proc = mount_proc
        self.version = version
        self._private_tmp: Path | None = None

    def _tmp(self) -> Path:
        if self._private_tmp is None:
            self._private_tmp = Path(tempfile.mkdtemp(prefix="garuda-bwrap-tmp-"))
        return self._private_tmp

    def argv(
        self, command: str, *, cwd: Path, env: Mapping[str, str], seccomp_fd: int
    ) -> list[str]:
        """The full bwrap command line for ``command`` (exposed for tests)."""
        layout = plan_layout(self.policy, env, self._tmp())
        return build_argv(
            self.launcher,
            layout,
            command=command,
            cwd=canonical(cwd),
            env=env,
            seccomp_fd=seccomp_fd,
            mount_proc=self.mount_proc,
        )

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
        """Run ``bash -c command`` in the sandbox; bwrap's own failures are explained.

        Whether /proc is the sandbox's own was decided by the backend's probe. A command
        that fails with bwrap's "Can't mount proc" line is never run again without it: the
        line may be the command's own, and the host's /proc shows every process of the
        user, whose ``/proc/PID/root`` is the host's whole file system.
        """
        fd = filter_fd(self.arch)
        try:
            result = await run_in_group(
                self.argv(command, cwd=cwd, env=env, seccomp_fd=fd),
                cwd=canonical(cwd),
                env=LAUNCHER_ENV,
                timeout_s=timeout_s,
                output_limit=output_limit,
                pass_fds=(fd, *pass_fds),
            )
        finally:
            os.close(fd)
        explained = userns_message(result.output) if result.exit_code == 1 else None
        if explained:
            result = replace(result, output=f"garuda: {explained}\n{result.output}")
        return result

    def info(self) -> ExecutorInfo:
        """bwrap's name, what it denies, and how it runs here."""
        detail = describe(self.version, self.arch.name, self.mount_proc)
        if self.policy.hidden:
            detail += f"; {len(self.policy.hidden)} hidden path(s)"
        denies = (*DENIES, "hidden paths") if self.policy.hidden else DENIES
        if host_network(self.policy):
            denies = tuple(d for d in denies if d != "network")
            detail = detail.replace("own loopback only", "the host's network")
        return ExecutorInfo(name="bwrap", kind="os", denies=denies, detail=detail)

    async def aclose(self) -> None:
        """Remove the private /tmp (in the background during a run: ``remove_soon``)."""
        if self._private_tmp is not None:
            remove_soon(self._private_tmp)
            self._private_tmp = None
