"""Entry point ``bwrap`` of ``garuda_evals.executors``."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from typing import TYPE_CHECKING

from garuda_evals.api import (
    Availability,
    Executor,
    ExecutorBackend,
    ExecutorInfo,
    GarudaError,
    SandboxPolicy,
)
from garuda_evals_sandbox_bwrap.probe import probe
from garuda_evals_sandbox_bwrap.seccomp import native_arch

if TYPE_CHECKING:
    from garuda_evals.api import PluginRegistry

INSTALL_HINT = "bwrap not found on PATH (apt-get install bubblewrap / dnf install bubblewrap)"


class BwrapBackend(ExecutorBackend):
    """bubblewrap on Linux: namespaces, a read-only system, and a seccomp filter.

    ``launcher`` replaces the ``bwrap`` command (tests run it inside another sandbox).
    """

    name = "bwrap"
    kind = "os"
    description = "bubblewrap (Linux): writes only in the task folder, no network, no secrets"

    def __init__(
        self, launcher: Sequence[str] | None = None, plugins: PluginRegistry | None = None
    ) -> None:
        super().__init__(plugins)
        self._launcher = tuple(launcher) if launcher else None

    def launcher(self) -> tuple[str, ...] | None:
        """The bwrap command, or None when bwrap is not installed."""
        if self._launcher is not None:
            return self._launcher
        found = shutil.which("bwrap")
        return (found,) if found else None

    def availability(self) -> Availability:
        """Probe once per process: run ``true`` in the sandbox."""
        launcher = self.launcher()
        if launcher is None:
            return Availability(False, INSTALL_HINT)
        result = probe(launcher)
        return Availability(result.ok, result.reason)

    def info(self) -> ExecutorInfo:
        """What every bwrap executor denies, for report.json (no executor is made)."""
        from garuda_evals_sandbox_bwrap.executor import DENIES, describe

        launcher = self.launcher()
        result = probe(launcher) if launcher else None
        arch = native_arch()
        if result is None or not result.ok or arch is None:
            return ExecutorInfo(name=self.name, kind="os", denies=DENIES, detail="unavailable")
        return ExecutorInfo(
            name=self.name,
            kind="os",
            denies=DENIES,
            detail=describe(result.version, arch.name, result.mount_proc),
        )

    def create(self, policy: SandboxPolicy) -> Executor:
        """A bwrap executor for one task (raises GarudaError when bwrap does not work)."""
        from garuda_evals_sandbox_bwrap.executor import BwrapExecutor

        launcher = self.launcher()
        if launcher is None:
            raise GarudaError(INSTALL_HINT)
        result = probe(launcher)
        arch = native_arch()
        if not result.ok or arch is None:
            raise GarudaError(result.reason or "bwrap does not work here")
        return BwrapExecutor(
            policy,
            launcher=launcher,
            arch=arch,
            mount_proc=result.mount_proc,
            version=result.version,
        )
