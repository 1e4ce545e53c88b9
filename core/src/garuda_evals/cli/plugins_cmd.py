"""``garuda plugins``: what is installed, from which distribution, at which version."""

from __future__ import annotations

import click

from garuda_evals.plugins import known

FIRST_PARTY = {
    "garuda-evals-python": "python suite, pytest toolchain",
    "garuda-evals-node": "basic and hard suites, node toolchain",
    "garuda-evals-java": "java suite, maven toolchain",
    "garuda-evals-repo-git": "repo suite from git history (--from-git)",
    "garuda-evals-agent": "the model agent (-m provider/model)",
    known.OS_SANDBOX_FOR_PLATFORM["linux"]: "OS sandbox for Linux (bubblewrap)",
    known.OS_SANDBOX_FOR_PLATFORM["darwin"]: "OS sandbox for macOS (Seatbelt)",
}


@click.command("plugins")
def plugins_command() -> int:
    """List installed plugins, executors and agents, and what else can be installed."""
    from garuda_evals.plugins.drivers import AGENTS, EXECUTORS, driver_names
    from garuda_evals.plugins.manager import get_registry

    registry = get_registry()
    installed = {plugin.distribution for plugin in registry.plugins}
    click.echo("plugins (entry point group garuda_evals):")
    for plugin in registry.plugins:
        click.echo(f"  {plugin.name:<14} {plugin.distribution} {plugin.version}")
    for plugin in registry.skipped:
        click.echo(
            f"  {plugin.name:<14} {plugin.distribution} {plugin.version} (skipped: see warning)"
        )
    for title, namespace in (("executors", EXECUTORS), ("agents", AGENTS)):
        click.echo(f"{title} ({namespace}):")
        for name, dist in driver_names(namespace).items():
            installed.add(dist)
            click.echo(f"  {name:<14} {dist}")
    available = [(d, what) for d, what in FIRST_PARTY.items() if d not in installed]
    if available:
        click.echo("not installed:")
        for dist, what in available:
            click.echo(f"  {dist:<32} {what}")
    return 0
