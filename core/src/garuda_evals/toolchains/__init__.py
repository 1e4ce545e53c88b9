"""Toolchains: what a task's check needs on this machine, probed before any agent call."""

from garuda_evals.toolchains.base import Toolchain, ToolchainStatus
from garuda_evals.toolchains.probe import prepare_toolchain, probe_toolchain

__all__ = ["Toolchain", "ToolchainStatus", "prepare_toolchain", "probe_toolchain"]
