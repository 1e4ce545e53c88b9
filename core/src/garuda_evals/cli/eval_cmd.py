"""``garuda eval``: every flag of the seed's Command section (heavy imports happen inside)."""

from __future__ import annotations

from pathlib import Path

import click

ON_OFF = click.Choice(["on", "off"])


def _split(values: tuple[str, ...]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


@click.command("eval")
@click.option("-m", "--model", help="model spec provider/model (default: $GARUDA_MODEL)")
@click.option(
    "-s",
    "--suite",
    "suites",
    multiple=True,
    help="basic|hard|java|python|all|repo or a folder (repeatable)",
)
@click.option(
    "-t",
    "--task",
    "task_ids",
    multiple=True,
    help="task ids to run (repeatable, or comma-separated)",
)
@click.option("--repeat", type=click.IntRange(1, 100), default=1, show_default=True)
@click.option("--parallel", type=click.IntRange(1, 64), default=1, show_default=True)
@click.option(
    "--executor", type=click.Choice(["auto", "os", "host"]), default="auto", show_default=True
)
@click.option(
    "--agent", help="oracle, noop, command, or an installed agent (default: the model agent)"
)
@click.option("--agent-command", help="with --agent command: the shell command to run per task")
@click.option("--agent-env", multiple=True, help="with --agent command: pass this variable through")
@click.option("--max-steps", type=click.IntRange(1), default=None)
@click.option("--keep", is_flag=True, help="keep scratch folders")
@click.option("--list", "list_only", is_flag=True, help="list suites, task counts and toolchains")
@click.option("--index", type=click.Choice(["off", "lookup", "all"]), default=None)
@click.option("--subagents", type=ON_OFF, default=None)
@click.option("--subagent-model", default=None)
@click.option("--todo", type=ON_OFF, default=None)
@click.option("--lsp", type=ON_OFF, default=None)
@click.option("--keep-thinking", type=ON_OFF, default=None)
@click.option("--format", "format_", type=ON_OFF, default=None)
@click.option("--batch", type=ON_OFF, default=None)
@click.option(
    "--report-format", default="table", show_default=True, help="table, json, or a plugin's"
)
@click.option("--prepare", metavar="TOOLCHAIN", help="prepare a toolchain (java, python) and exit")
@click.option(
    "--from-git", is_flag=True, help="build the repo suite from this project's git history"
)
@click.option("--commits", type=click.IntRange(1), default=200, show_default=True)
@click.option("--since", default=None, help="with --from-git: only commits since this date")
@click.option("--max-tasks", type=click.IntRange(1), default=30, show_default=True)
@click.option("--test-command", default=None, help="with --from-git: the test command ({files})")
def eval_command(**options: object) -> int:
    """Run coding tasks with an agent and report pass rates, steps, tokens, cost and time.

    Exit codes: 0 every run passed, 2 otherwise, 1 the run could not start, 130 interrupted
    (the partial report is still written).
    """
    from garuda_evals.cli.eval_main import dispatch

    return dispatch(options, cwd=Path.cwd())


__all__ = ["_split", "eval_command"]
