"""``garuda import harbor TASKS_DIR [-o SUITE_DIR]``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click


@click.command("harbor")
@click.argument("tasks", metavar="TASKS_DIR", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="the suite folder to write (default ./harbor-suite)",
)
@click.option("--max-tasks", type=click.IntRange(1), help="import at most this many tasks")
@click.option(
    "--filter", "filter", help="only task folders whose name this regular expression finds"
)
@click.option(
    "--min-reward",
    type=click.FloatRange(0, 1, min_open=True),
    default=1.0,
    show_default=True,
    help="the reward a PASS needs",
)
@click.option(
    "--no-check", is_flag=True, help="save the tasks without judging them (run suite check later)"
)
@click.option(
    "--parallel", type=click.IntRange(1, 64), default=2, show_default=True, help="checks at once"
)
@click.option("--name", help="the suite's name (default: the folder's)")
def harbor_command(**options: Any) -> int:
    """Import Harbor / Terminal-Bench task folders as a suite run on this host's toolchains.

    TASKS_DIR is a folder of task folders, or one task folder. A task runs without Docker
    when its Dockerfile only installs what this host has (apt and pip packages, a python,
    node, debian or ubuntu image); otherwise it is refused, named in one line. Its prompt is
    instruction.md, its reference solution what solution/solve.sh writes (run once here),
    and its verdict the reward tests/test.sh writes (held out: only the judge writes it).
    Each task is judged as shipped (FAIL) and solved (PASS) before it is kept.

    Exit codes: 0 a suite with at least one task was saved, 1 none (or bad input).
    """
    from garuda_evals_harbor.builder import HarborBuilder

    return HarborBuilder().build(options, cwd=Path.cwd(), echo=click.echo)
