"""``garuda eval --prepare TOOLCHAIN``: fill caches once, with network, when the user asks."""

from __future__ import annotations

import click

from garuda_evals.errors import UsageError
from garuda_evals.plugins.known import TOOLCHAINS, install_hint
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.toolchains.probe import prepare_toolchain


async def prepare(registry: PluginRegistry, name: str) -> int:
    """Run the toolchain's prepare step, then its offline probe; 0 when the probe passes."""
    records = registry.collect("garuda_toolchains")
    if name not in records:
        choices = ", ".join(sorted(records)) or "none installed"
        raise UsageError(
            f"--prepare {name}: unknown toolchain{install_hint(TOOLCHAINS, name)}; choose one of: {choices}"
        )
    toolchain = records[name].record.load()
    click.echo(f"preparing {toolchain.name}: {toolchain.prepare_command or 'nothing to prepare'}")
    prepared, output, status = await prepare_toolchain(toolchain)
    if not prepared:
        click.echo(f"prepare step failed:\n{output}", err=True)
    version = f" {status.version}" if status.version else ""
    if status.ok:
        click.echo(f"{toolchain.name}{version}: offline probe passes")
        return 0
    # After a prepare step that worked, the toolchain's hint (which says to prepare) would
    # send the user round in a loop: say what the probe still misses instead.
    still = status.hint if not prepared else status.missing or "see the probe's output below"
    done = "" if not prepared else "prepare step passed, but the "
    click.echo(f"{toolchain.name}{version}: {done}offline probe still fails: {still}", err=True)
    if status.output_head:
        click.echo(status.output_head, err=True)
    return 1
