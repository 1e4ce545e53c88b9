"""Toolchains: what a task's check needs on this machine, probed before any agent call."""

from typing import Any

from garuda_evals.toolchains.base import Toolchain, ToolchainStatus

__all__ = ["Toolchain", "ToolchainStatus", "prepare_toolchain", "probe_toolchain"]


def __getattr__(name: str) -> Any:
    """Import the probe functions only when used (they pull in the executor and pydantic)."""
    if name in {"prepare_toolchain", "probe_toolchain"}:
        from garuda_evals.toolchains import probe

        return getattr(probe, name)
    raise AttributeError(name)
