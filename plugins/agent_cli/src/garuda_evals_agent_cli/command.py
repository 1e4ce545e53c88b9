"""``garuda agents`` / ``agents list`` (each CLI with its pin and whether it works) and
``agents install NAME``."""

from __future__ import annotations

import click

from garuda_evals.api import GarudaError, UsageError
from garuda_evals_agent_cli.adapters.registry import adapters
from garuda_evals_agent_cli.install import agents_root, install, program_path, version_of


@click.group(invoke_without_command=True)
@click.pass_context
def agents(context: click.Context) -> None:
    """Agent CLIs garuda can run and meter (installed under $GARUDA_AGENTS_DIR).

    Without a command, the same as: garuda agents list
    """
    if context.invoked_subcommand is None:
        _list()


@agents.command("list")
def list_command() -> None:
    """Each agent CLI garuda knows: its pinned version, and whether it is installed and works."""
    _list()


def _list() -> None:
    click.echo(f"agent CLIs in {agents_root()}:")
    for name, adapter in sorted(adapters().items()):
        program = program_path(adapter)
        if program is None:
            state = f"not installed (garuda agents install {name})"
        else:
            seen = version_of(program)
            state = f"works: {seen}" if seen else "installed but does not start"
        click.echo(f"  {name:12} {adapter.package.name}@{adapter.package.version}  {state}")


@agents.command("install")
@click.argument("name")
def install_command(name: str) -> None:
    """Install the pinned version of NAME into the garuda-managed folder (never globally)."""
    known = adapters()
    adapter = known.get(name)
    if adapter is None:
        raise UsageError(
            f"garuda agents install {name}: unknown agent CLI; "
            f"choose one of: {', '.join(sorted(known))}"
        )
    click.echo(f"installing {adapter.package.name}@{adapter.package.version} ...")
    program = install(adapter)
    seen = version_of(program)
    click.echo(f"{name}: {program} ({seen or 'does not start'})")
    if seen is None:
        raise GarudaError(f"{name} installed at {program} but `--version` fails")
