"""``garuda``: the CLI is built by a factory, so plugins add commands and tests build it fresh."""

from __future__ import annotations

import sys

import click

from garuda_evals import __version__
from garuda_evals.errors import GarudaError

EXIT_CANNOT_START = 1
EXIT_INTERRUPTED = 130


def build_cli() -> click.Group:
    """The root group with core's commands and every plugin's ``garuda_commands``."""
    from garuda_evals.cli.compare_cmd import compare_command
    from garuda_evals.cli.eval_cmd import eval_command
    from garuda_evals.cli.plugins_cmd import plugins_command

    @click.group(context_settings={"help_option_names": ["-h", "--help"]})
    @click.version_option(__version__, prog_name="garuda")
    def cli() -> None:
        """Measure AI coding agents on coding tasks: pass rate, steps, tokens, cost, time."""

    cli.add_command(eval_command)
    cli.add_command(plugins_command)
    cli.add_command(compare_command)
    _add_plugin_commands(cli)
    return cli


def _add_plugin_commands(cli: click.Group) -> None:
    from garuda_evals.plugins.manager import PluginRegistry

    try:
        registry = PluginRegistry()
        commands = registry.collect("garuda_commands")
    except GarudaError as error:
        click.echo(f"garuda: warning: {error}", err=True)
        return
    for name, registered in commands.items():
        if name in cli.commands:
            click.echo(f"garuda: warning: {registered.distribution} redefines '{name}'", err=True)
            continue
        cli.add_command(registered.record.load(), name=name)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; user errors become one line on stderr and exit code 1."""
    try:
        cli = build_cli()
        result = cli.main(args=argv, prog_name="garuda", standalone_mode=False)
    except GarudaError as error:
        click.echo(f"garuda: error: {error}", err=True)
        return error.exit_code
    except click.exceptions.Abort:
        click.echo("garuda: interrupted", err=True)
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        click.echo("garuda: interrupted", err=True)
        return EXIT_INTERRUPTED
    except click.ClickException as error:
        error.show()
        return EXIT_CANNOT_START
    except click.exceptions.Exit as done:
        return done.exit_code
    return result if isinstance(result, int) else 0


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
