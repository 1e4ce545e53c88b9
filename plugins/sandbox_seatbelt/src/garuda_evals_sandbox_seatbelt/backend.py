"""Entry point ``seatbelt`` of ``garuda_evals.executors``."""

from __future__ import annotations

import functools
import os
import subprocess
import sys

from garuda_evals.api import (
    Availability,
    Executor,
    ExecutorBackend,
    ExecutorInfo,
    GarudaError,
    SandboxPolicy,
)
from garuda_evals_sandbox_seatbelt.profile import SANDBOX_EXEC

PROBE_PROFILE = "(version 1)(allow default)"


@functools.cache
def probe() -> Availability:
    """Whether sandbox-exec works here (macOS only)."""
    if sys.platform != "darwin":
        return Availability(False, f"Seatbelt needs macOS (this is {sys.platform})")
    if not os.access(SANDBOX_EXEC, os.X_OK):
        return Availability(False, f"{SANDBOX_EXEC} is missing")
    try:
        done = subprocess.run(
            [SANDBOX_EXEC, "-p", PROBE_PROFILE, "/usr/bin/true"],
            capture_output=True,
            text=True,
            timeout=20,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return Availability(False, f"sandbox-exec failed: {error}")
    if done.returncode != 0:
        return Availability(False, f"sandbox-exec failed: {done.stderr.strip()[:200]}")
    return Availability(True)


class SeatbeltBackend(ExecutorBackend):
    """Seatbelt on macOS: ``sandbox-exec`` with a deny-default profile."""

    name = "seatbelt"
    kind = "os"
    description = "Seatbelt (macOS): writes only in the task folder, no network, no secrets"

    def availability(self) -> Availability:
        """False off macOS, with the reason."""
        return probe()

    def info(self) -> ExecutorInfo:
        """What every Seatbelt executor denies, for report.json (no executor is made)."""
        from garuda_evals_sandbox_seatbelt.executor import DENIES, describe

        return ExecutorInfo(name=self.name, kind="os", denies=DENIES, detail=describe(True))

    def create(self, policy: SandboxPolicy) -> Executor:
        """A Seatbelt executor for one task (raises GarudaError off macOS)."""
        state = probe()
        if not state.ok:
            raise GarudaError(f"the seatbelt executor does not work here: {state.reason}")
        from garuda_evals_sandbox_seatbelt.executor import SeatbeltExecutor

        return SeatbeltExecutor(policy)
