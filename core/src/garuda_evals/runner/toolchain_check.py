"""Probe the chosen tasks' toolchains before the first agent call."""

from __future__ import annotations

import anyio

from garuda_evals.environment import check_environment
from garuda_evals.errors import GarudaError, UsageError
from garuda_evals.plugins.known import TOOLCHAINS, install_hint
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.toolchains.base import Toolchain, ToolchainStatus
from garuda_evals.toolchains.cache import ProbeCache, cache_file, file_stamps, probe_key


def resolve_toolchains(registry: PluginRegistry, names: set[str]) -> dict[str, Toolchain]:
    """Toolchains by their own name; an unknown name is an error naming the plugin to install."""
    records = registry.collect("garuda_toolchains")
    found: dict[str, Toolchain] = {}
    for name in sorted(names):
        if name not in records:
            raise UsageError(
                f"toolchain '{name}' is required by the chosen tasks but no installed plugin "
                f"provides it{install_hint(TOOLCHAINS, name)}"
            )
        toolchain = records[name].record.load()
        found[toolchain.name] = toolchain
    return found


async def probe_all(
    toolchains: dict[str, Toolchain], *, reprobe: bool = False, cache: ProbeCache | None = None
) -> dict[str, ToolchainStatus]:
    """Probe every toolchain at the same time, or take its passing probe from ``cache`` when
    nothing it is keyed by changed (never with ``reprobe``); passing probes are remembered.

    A toolchain whose version files are unchanged since its probe was remembered is taken
    without reading its versions; otherwise its version files are stamped before its
    versions are read (an upgrade in between is caught by the next run)."""
    statuses: dict[str, ToolchainStatus] = {}
    env = check_environment()

    async def probe(name: str, toolchain: Toolchain) -> None:
        if cache is not None and not reprobe:
            unread = cache.lookup_unread(toolchain, env)
            if unread is not None:
                statuses[name] = unread
                return
        from garuda_evals.toolchains.probe import (
            probe_toolchain,
            read_version_files,
            read_versions,
        )

        files = None
        if cache is not None and not cache.launcher_known(toolchain, env):
            files = await read_version_files(toolchain)
        stamps = file_stamps(files) if files else None
        versions = await read_versions(toolchain)
        key = probe_key(toolchain, env, *versions)
        remembered = None
        if cache is not None and key is not None and not reprobe:
            remembered = cache.lookup(toolchain, key)
        statuses[name] = remembered or await probe_toolchain(toolchain, versions_read=versions)
        if cache is not None and key is not None:
            cache.remember(key, statuses[name], version_files=stamps)

    async with anyio.create_task_group() as group:
        for name, toolchain in toolchains.items():
            group.start_soon(probe, name, toolchain)
    return dict(sorted(statuses.items()))


def missing_message(status: ToolchainStatus) -> str:
    """The versions found, the hint, then the first lines of the probe's output."""
    found = [f"{status.name} {status.version}"] if status.version else []
    found += [f"{label} {version}" for label, version in status.versions.items()]
    versions = f" (found {', '.join(found)})" if found else ""
    lines = [f"toolchain {status.name} is not ready{versions}: {status.hint}"]
    if status.output_head:
        lines += ["probe output:", *("  " + line for line in status.output_head.splitlines())]
    return "\n".join(lines)


async def check_toolchains(
    registry: PluginRegistry, names: set[str], *, reprobe: bool = False
) -> dict[str, ToolchainStatus]:
    """Probe (or take a passing probe from the probe cache unless ``reprobe``); raise
    GarudaError (exit 1) with the hint when one is missing."""
    toolchains = resolve_toolchains(registry, names)
    cache = ProbeCache(cache_file()) if toolchains else None
    statuses = await probe_all(toolchains, reprobe=reprobe, cache=cache)
    for status in statuses.values():
        if not status.ok:
            raise GarudaError(missing_message(status))
    return statuses
