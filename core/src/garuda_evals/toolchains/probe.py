"""Run a toolchain's probe project (and its prepare step) in a scratch folder, on the host."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from packaging.version import InvalidVersion, Version

from garuda_evals.environment import check_environment
from garuda_evals.executors.host import HostExecutor
from garuda_evals.suites.base import write_files
from garuda_evals.toolchains.base import Toolchain, ToolchainStatus
from garuda_evals.toolchains.missing import describe_missing

HEAD_LINES = 5
TAIL_LINES = 25
VERSION_TIMEOUT_S = 30.0


def excerpt(output: str) -> str:
    """A failing command's output: whole when short, else its first and its last lines.

    Compilers and build tools put the error that matters at the end.
    """
    lines = output.strip().splitlines()
    if len(lines) <= HEAD_LINES + TAIL_LINES + 1:
        return "\n".join(lines)
    left_out = len(lines) - HEAD_LINES - TAIL_LINES
    return "\n".join(
        [*lines[:HEAD_LINES], f"... ({left_out} lines left out)", *lines[-TAIL_LINES:]]
    )


async def read_version(command: str, pattern: str) -> str | None:
    """Run ``command`` and pull the version out of its output with ``pattern``."""
    result = await HostExecutor().run(
        command,
        cwd=Path(tempfile.gettempdir()),
        env=check_environment(),
        timeout_s=VERSION_TIMEOUT_S,
    )
    if result.exit_code != 0:
        return None
    match = re.search(pattern, result.output)
    return match.group(1) if match else None


async def _versions(toolchain: Toolchain) -> tuple[str | None, dict[str, str]]:
    version = None
    if toolchain.version_command:
        version = await read_version(toolchain.version_command, toolchain.version_pattern)
    extra: dict[str, str] = {}
    for label, (command, pattern) in toolchain.extra_versions.items():
        found = await read_version(command, pattern)
        if found:
            extra[label] = found
    return version, extra


def _too_old(version: str | None, minimum: str | None) -> bool:
    if not minimum or not version:
        return False
    try:
        return Version(version) < Version(minimum)
    except InvalidVersion:
        return False


async def probe_toolchain(toolchain: Toolchain) -> ToolchainStatus:
    """Run the probe project; ok only when it exits 0 and the version is new enough."""
    version, versions = await _versions(toolchain)
    if _too_old(version, toolchain.min_version):
        return ToolchainStatus(
            name=toolchain.name,
            ok=False,
            hint=f"{toolchain.name} {version} is older than {toolchain.min_version}. "
            f"{toolchain.hint}",
            version=version,
            versions=versions,
        )
    with tempfile.TemporaryDirectory(prefix=f"garuda-probe-{toolchain.name}-") as scratch:
        folder = Path(scratch)
        write_files(folder, toolchain.probe_files)
        result = await HostExecutor().run(
            toolchain.probe_command,
            cwd=folder,
            env=check_environment(),
            timeout_s=toolchain.probe_timeout_s,
        )
    ok = result.exit_code == 0
    head = excerpt(result.output)
    if result.timed_out:
        head = f"(probe timed out after {toolchain.probe_timeout_s:.0f} s)\n{head}"
    missing = "" if ok else describe_missing(result.output, check_environment())
    return ToolchainStatus(
        name=toolchain.name,
        ok=ok,
        hint="" if ok else " ".join(filter(None, [toolchain.hint, missing])),
        missing=missing,
        version=version,
        versions=versions,
        output_head="" if ok else head,
        duration_ms=result.duration_ms,
    )


async def prepare_toolchain(toolchain: Toolchain) -> tuple[bool, str, ToolchainStatus]:
    """Run the prepare step (network allowed), then the offline probe again.

    Returns whether prepare exited 0, its output (first and last lines), and the probe's
    new status.
    """
    if toolchain.prepare_command is None:
        status = await probe_toolchain(toolchain)
        return True, f"{toolchain.name} has nothing to prepare", status
    with tempfile.TemporaryDirectory(prefix=f"garuda-prepare-{toolchain.name}-") as scratch:
        folder = Path(scratch)
        write_files(folder, toolchain.probe_files)
        result = await HostExecutor().run(
            toolchain.prepare_command,
            cwd=folder,
            env=check_environment(),
            timeout_s=toolchain.prepare_timeout_s,
        )
    status = await probe_toolchain(toolchain)
    return result.exit_code == 0, excerpt(result.output), status
