"""Run a toolchain's probe project (and its prepare step) in a scratch folder, on the host."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import anyio
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


async def _command_output(command: str) -> str | None:
    result = await HostExecutor().run(
        command,
        cwd=Path(tempfile.gettempdir()),
        env=check_environment(),
        timeout_s=VERSION_TIMEOUT_S,
    )
    return result.output if result.exit_code == 0 else None


async def read_version_files(toolchain: Toolchain) -> list[str] | None:
    """The files the toolchain's versions are read from (real paths, in the order printed),
    or None when it names no command for them or the command fails."""
    if toolchain.version_files_command is None:
        return None
    output = await _command_output(toolchain.version_files_command)
    if output is None:
        return None
    paths = [os.path.realpath(line) for line in output.splitlines() if line.strip()]
    return list(dict.fromkeys(paths)) or None


def _match(output: str | None, pattern: str) -> str | None:
    match = re.search(pattern, output) if output is not None else None
    return match.group(1) if match else None


async def read_versions(toolchain: Toolchain) -> tuple[str | None, dict[str, str]]:
    """The toolchain's version and its extra versions; each distinct command runs once, all
    at the same time (``mvn -v`` gives both Maven's and the JDK's)."""
    commands = [command for command, _ in toolchain.extra_versions.values()]
    commands += [toolchain.version_command] if toolchain.version_command else []
    outputs: dict[str, str | None] = {}

    async def run(command: str) -> None:
        outputs[command] = await _command_output(command)

    async with anyio.create_task_group() as group:
        for command in dict.fromkeys(commands):
            group.start_soon(run, command)
    version = None
    if toolchain.version_command:
        version = _match(outputs[toolchain.version_command], toolchain.version_pattern)
    extra: dict[str, str] = {}
    for label, (command, pattern) in toolchain.extra_versions.items():
        found = _match(outputs[command], pattern)
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


async def probe_toolchain(
    toolchain: Toolchain, *, versions_read: tuple[str | None, dict[str, str]] | None = None
) -> ToolchainStatus:
    """Run the probe project; ok only when it exits 0 and the version is new enough.

    ``versions_read`` are the versions when the caller has read them already.
    """
    version, versions = versions_read or await read_versions(toolchain)
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
