"""``garuda``: the CLI is built by a factory, so plugins add commands and tests build it fresh."""

from __future__ import annotations

import functools
import importlib
import sys
from typing import TYPE_CHECKING

import click

from garuda_evals import __version__
from garuda_evals.errors import GarudaError
from garuda_evals.plugins import known

if TYPE_CHECKING:
    from garuda_evals.cli.lazy import LazyGroup
    from garuda_evals.plugins.manager import PluginRegistry

EXIT_CANNOT_START = 1
EXIT_INTERRUPTED = 130
CORE_COMMANDS = {
    "compare": "compare_cmd:compare_command",
    "plugins": "plugins_cmd:plugins_command",
    "regrade": "regrade_cmd:regrade_command",
    "report": "report_cmd:report_command",
    "runs": "runs_cmd:runs_command",
    "suite": "suite_cmd:suite_group",
}
"""Core's commands besides eval and ab, as ``module:attribute`` under ``garuda_evals.cli``:
imported only when used (an eval imports none of them)."""


def build_cli(registry: PluginRegistry | None = None) -> click.Group:
    """The root group with core's commands and every plugin's commands and options.

    The registry is built once per process (``get_registry``) unless one is given.
    """
    from garuda_evals.cli.eval_cmd import build_eval_command
    from garuda_evals.cli.lazy import LazyGroup
    from garuda_evals.plugins.manager import get_registry

    registry = registry or get_registry()
    _show_warnings(registry)

    @click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
    @click.version_option(__version__, prog_name="garuda")
    def cli() -> None:
        """Measure AI coding agents on coding tasks: pass rate, steps, tokens, cost, time."""

    eval_command = build_eval_command(registry)
    cli.add_command(eval_command)

    def ab_command() -> click.Command:
        from garuda_evals.cli.ab_cmd import build_ab_command

        return build_ab_command(eval_command, registry)

    cli.add_loader("ab", ab_command)

    def import_group() -> click.Command:
        from garuda_evals.cli.import_cmd import build_import_group

        return build_import_group(registry)

    cli.add_loader("import", import_group)
    for name, where in CORE_COMMANDS.items():
        cli.add_loader(name, functools.partial(_core_command, where))
    _add_plugin_commands(cli, registry)
    return cli


def _core_command(where: str) -> click.Command:
    module, _, attribute = where.partition(":")
    command: click.Command = getattr(
        importlib.import_module(f"garuda_evals.cli.{module}"), attribute
    )
    return command


def _show_warnings(registry: PluginRegistry) -> None:
    """Print the warnings so far, and every later one as it happens (a failing observer)."""
    for warning in registry.warnings:
        click.echo(f"garuda: warning: {warning}", err=True)

    def warn(message: str) -> None:
        registry.warnings.append(message)
        click.echo(f"garuda: warning: {message}", err=True)

    registry.warn = warn


def _add_plugin_commands(cli: LazyGroup, registry: PluginRegistry) -> None:
    try:
        commands = registry.commands()
    except GarudaError as error:
        click.echo(f"garuda: warning: {error}", err=True)
        return
    for name, registered in commands.items():
        if cli.has(name):
            click.echo(f"garuda: warning: {registered.distribution} redefines '{name}'", err=True)
            continue
        cli.add_record(name, registered.record)


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
    except click.NoSuchOption as error:
        needs = known.OPTIONS.get(error.option_name)
        if needs is None:
            error.show()
        else:
            click.echo(
                f"garuda: error: {error.option_name} {needs[0]} (install {needs[1]})", err=True
            )
        return EXIT_CANNOT_START
    except click.ClickException as error:
        error.show()
        return EXIT_CANNOT_START
    except click.exceptions.Exit as done:
        return done.exit_code
    return result if isinstance(result, int) else 0


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
