"""``garuda import exercism TRACK_DIR [-o SUITE_DIR]``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click


@click.command("exercism")
@click.argument("track", metavar="TRACK_DIR", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="the suite folder to write (default ./exercism-suite)",
)
@click.option("--max-tasks", type=click.IntRange(1), help="import at most this many exercises")
@click.option("--filter", "filter", help="only exercises whose name this regular expression finds")
@click.option(
    "--no-check", is_flag=True, help="save the tasks without judging them (run suite check later)"
)
@click.option(
    "--parallel", type=click.IntRange(1, 64), default=2, show_default=True, help="checks at once"
)
@click.option("--name", help="the suite's name (default: the folder's)")
def exercism_command(**options: Any) -> int:
    """Import an Exercism track's practice exercises as a suite of tasks.

    TRACK_DIR is a track (its exercises/practice/ folder is read), a folder of exercises,
    or one exercise. Each exercise's workspace is its stub and its tests, its prompt the
    instructions, its reference solution the example; the tests are protected. Each task
    is judged as shipped (FAIL) and solved (PASS) before it is kept; an exercise that
    cannot be kept is listed with its reason and never run.

    Exit codes: 0 a suite with at least one task was saved, 1 none (or bad input).
    """
    from garuda_evals_exercism.builder import ExercismBuilder

    return ExercismBuilder().build(options, cwd=Path.cwd(), echo=click.echo)
