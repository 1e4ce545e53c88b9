"""``garuda ab``: a sequential A/B of two sets of ``garuda eval`` flags."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from click.core import ParameterSource

from garuda_evals.errors import UsageError

if TYPE_CHECKING:
    from garuda_evals.models.settings import RunSettings
    from garuda_evals.plugins.manager import PluginRegistry

EXIT_DECIDED, EXIT_UNDECIDED, EXIT_INTERRUPTED = 0, 2, 130
REFUSED = ("repeat", "list_only", "prepare")


def arm_settings(
    eval_command: click.Command,
    registry: PluginRegistry,
    label: str,
    common: list[str],
    flags: str,
) -> RunSettings:
    """The arm's RunSettings: the shared flags, then the arm's own, parsed as ``garuda eval``."""
    from garuda_evals.cli.eval_main import settings_from

    flag = f"--arm-{label.lower()}"
    try:
        args = [*common, *shlex.split(flags)]
    except ValueError as error:
        raise UsageError(f"{flag}: {error}") from error
    try:
        context = eval_command.make_context("eval", args)
    except click.ClickException as error:
        raise UsageError(f"{flag}: {error.format_message()}") from error
    for name in REFUSED:
        if context.get_parameter_source(name) is ParameterSource.COMMANDLINE:
            option = next(p for p in eval_command.params if p.name == name).opts[-1]
            raise UsageError(f"{flag}: {option} is not for an arm (garuda ab sets the repeats)")
    return settings_from(context.params, registry)


def build_ab_command(eval_command: click.Command, registry: PluginRegistry) -> click.Command:
    """The ab command; arms and shared flags are parsed by ``eval_command``."""

    @click.command(
        "ab", context_settings={"ignore_unknown_options": True, "allow_extra_args": True}
    )
    @click.option("--arm-a", required=True, help='arm A\'s eval flags, e.g. "--keep-thinking on"')
    @click.option("--arm-b", required=True, help="arm B's eval flags")
    @click.option(
        "--max-repeat",
        type=click.IntRange(1, 100),
        default=10,
        show_default=True,
        help="stop after this many repeats of every task in each arm",
    )
    @click.option(
        "--alpha",
        type=click.FloatRange(0, 1, min_open=True, max_open=True),
        default=0.05,
        show_default=True,
        help="the chance of deciding when the arms are equal",
    )
    @click.argument("shared", nargs=-1, type=click.UNPROCESSED)
    def ab_command(
        arm_a: str, arm_b: str, max_repeat: int, alpha: float, shared: tuple[str, ...]
    ) -> int:
        """Run two arms interleaved task by task; stop once a sequential test decides.

        Flags after the options (-s, -t, --executor...) are shared by both arms. The test is
        anytime-valid (a betting e-process on paired runs): looking after every pair keeps
        the false-decision rate at or below --alpha. Exit codes: 0 decided, 2 no decision by
        --max-repeat, 1 bad input, 130 interrupted (both partial reports are still written).
        """
        import anyio

        from garuda_evals.runner.ab import prepare_arm, run_ab

        common = list(shared)
        settings_a = arm_settings(eval_command, registry, "A", common, arm_a)
        settings_b = arm_settings(eval_command, registry, "B", common, arm_b)
        cwd = Path.cwd()

        async def main() -> int:
            a = await prepare_arm("A", settings_a, registry, cwd, sys.stderr)
            b = await prepare_arm("B", settings_b, registry, cwd, sys.stderr)
            outcome = await run_ab(a, b, max_repeat=max_repeat, alpha=alpha, stderr=sys.stderr)
            for line in outcome.lines:
                click.echo(line)
            path_a, path_b = outcome.reports
            click.echo(f"reports: A {path_a}  B {path_b}")
            click.echo(f"details: garuda compare {path_a.parent} {path_b.parent}")
            if outcome.interrupted:
                return EXIT_INTERRUPTED
            return EXIT_DECIDED if outcome.test.decided else EXIT_UNDECIDED

        return anyio.run(main)

    return ab_command
