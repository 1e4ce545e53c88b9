"""``garuda eval --list``: suites, task counts, toolchains and what to install for the rest."""

from __future__ import annotations

import statistics

import anyio
import click

from garuda_evals.errors import GarudaError
from garuda_evals.plugins.known import SUITES
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.report.units import counted
from garuda_evals.toolchains.base import Toolchain
from garuda_evals.toolchains.probe import read_versions


async def _versions(toolchains: dict[str, Toolchain]) -> dict[str, str]:
    found: dict[str, str] = {}

    async def one(name: str, toolchain: Toolchain) -> None:
        version, extra = await read_versions(toolchain)
        parts = [f"{name} {version or 'not found'}"] if toolchain.version_command else []
        parts += [
            f"{label} {extra.get(label) or 'not found'}" for label in toolchain.extra_versions
        ]
        found[name] = ", ".join(parts) or name

    async with anyio.create_task_group() as group:
        for name, toolchain in toolchains.items():
            group.start_soon(one, name, toolchain)
    return found


def print_listing(registry: PluginRegistry) -> int:
    """Print every suite (with task count and toolchains) and every toolchain's version."""
    suites = registry.collect("garuda_suites")
    toolchain_records = registry.collect("garuda_toolchains")
    toolchains = {r.record.name: r.record.load() for r in toolchain_records.values()}
    versions = anyio.run(_versions, toolchains)
    click.echo("suites:")
    for name, registered in sorted(suites.items()):
        try:
            tasks = registered.record.load().tasks()
            count = counted(len(tasks), "task")
            strengths = sorted(t.strength for t in tasks if t.strength is not None)
            if strengths:
                middle = statistics.median(strengths)
                count += f" (strength median {middle:.2f}, lowest {strengths[0]:.2f})"
            needs = sorted({t for task in tasks for t in task.requires})
        except GarudaError as error:
            count, needs = f"not available: {error}", list(registered.record.requires)
        needs_text = f" · needs {', '.join(needs)}" if needs else ""
        click.echo(
            f"  {name:<8} {count}{needs_text} · {registered.record.description} ({registered.distribution})"
        )
    missing = sorted({dist for name, dist in SUITES.items() if name not in suites})
    for dist in missing:
        names = ", ".join(n for n, d in SUITES.items() if d == dist)
        click.echo(f"  {names}: not installed (install {dist})")
    click.echo("toolchains:")
    if not toolchains:
        click.echo("  none installed")
    for name in sorted(toolchains):
        click.echo(f"  {name:<8} {versions.get(name, '')} · {toolchains[name].description}")
    return 0
