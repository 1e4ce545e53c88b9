"""``garuda eval``: core's flags here, every plugin's options attached from ``garuda_options``.

Heavy imports happen inside the command; building it imports only click and the records.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from garuda_evals.cli import eval_help
from garuda_evals.cli.grouped import GroupedCommand, LiveHelpOption, plugin_option

if TYPE_CHECKING:
    from garuda_evals.plugins.manager import PluginRegistry

MAX_REPEAT = 1000
"""``--repeat`` up to this: a thousand runs of one task fit in one run (results are streamed)."""


def _split(values: tuple[str, ...]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def _core_options(command: click.Command, registry: PluginRegistry) -> click.Command:
    decorators = [
        click.option(
            "-s",
            "--suite",
            "suites",
            multiple=True,
            cls=LiveHelpOption,
            help_from=partial(eval_help.suite_help, registry),
        ),
        click.option(
            "-t",
            "--task",
            "task_ids",
            multiple=True,
            help="task ids to run (repeatable, or comma-separated)",
        ),
        click.option(
            "--repeat",
            type=click.IntRange(1, MAX_REPEAT),
            default=1,
            show_default=True,
            help="runs per task",
        ),
        click.option(
            "--parallel",
            type=click.IntRange(1, 64),
            default=1,
            show_default=True,
            help="runs at once",
        ),
        click.option(
            "--executor",
            type=click.Choice(["auto", "os", "host"]),
            default="auto",
            show_default=True,
            help="where commands run: the OS sandbox, the host, or the sandbox where it works",
        ),
        click.option(
            "--backend",
            default="local",
            show_default=True,
            cls=LiveHelpOption,
            help_from=partial(eval_help.backend_help, registry),
        ),
        click.option(
            "--agent",
            help="oracle, noop, command, or an installed agent (default: the model agent)",
        ),
        click.option(
            "--agent-command", help="with --agent command: the shell command to run per task"
        ),
        click.option(
            "--agent-env", multiple=True, help="with --agent command: pass this variable through"
        ),
        click.option(
            "--agent-mount",
            "agent_mounts",
            multiple=True,
            metavar="PATH",
            help="with --agent command: show this file or folder to the command, read-only",
        ),
        click.option("--keep", is_flag=True, help="keep scratch folders"),
        click.option(
            "--strict",
            is_flag=True,
            help="count a PASS whose change reaches into the test runner (PASS?) as FAIL",
        ),
        click.option(
            "--reprobe",
            is_flag=True,
            help="probe the toolchains again rather than trust the probe cache",
        ),
        click.option(
            "--list", "list_only", is_flag=True, help="list suites, task counts and toolchains"
        ),
        click.option(
            "--report-format",
            default="table",
            show_default=True,
            help="table, json, or a plugin's",
        ),
        click.option(
            "--prepare",
            metavar="TOOLCHAIN",
            cls=LiveHelpOption,
            help_from=partial(eval_help.prepare_help, registry),
        ),
        click.option(
            "--resume",
            metavar="RUN",
            help="continue an interrupted or crashed run (id or folder): run only what is missing",
        ),
        click.option(
            "--retry-errors",
            metavar="RUN",
            help="run a saved run's ERR runs again (id or folder); the report marks them",
        ),
    ]
    for decorator in decorators:
        command = decorator(command)
    return command


def build_eval_command(registry: PluginRegistry) -> click.Command:
    """The eval command with core's flags and the options of every installed plugin."""

    @click.command("eval", cls=GroupedCommand)
    def eval_command(**options: Any) -> int:
        """Run coding tasks with an agent and report pass rates, steps, tokens, cost and time.

        Exit codes: 0 every run passed, 2 otherwise, 1 the run could not start, 130 interrupted
        (the partial report is still written).
        """
        from garuda_evals.cli.eval_main import dispatch

        context = click.get_current_context()
        given = {
            name
            for name in options
            if context.get_parameter_source(name)
            in (click.core.ParameterSource.COMMANDLINE, click.core.ParameterSource.ENVIRONMENT)
        }
        return dispatch(options, cwd=Path.cwd(), registry=registry, given=given)

    command = _core_options(eval_command, registry)
    taken = {flag for param in command.params for flag in param.opts}
    for owner, registered in registry.options().items():
        record = registered.record
        if record.command != "eval":
            continue
        for option in record.options:
            clash = taken.intersection(option.flags)
            if clash:
                registry.warn(
                    f"{registered.distribution}: option {sorted(clash)[0]} of '{owner}' is "
                    "already taken and is left out"
                )
                continue
            command.params.append(plugin_option(option, owner, registered.distribution))
            taken.update(option.flags)
    return command


__all__ = ["_split", "build_eval_command"]
