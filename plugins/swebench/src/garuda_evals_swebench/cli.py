"""``garuda import swe-bench INSTANCES.jsonl --repos DIR --env-recipe FILE [-o SUITE_DIR]``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click


@click.command("swe-bench")
@click.argument("instances", type=click.Path(path_type=Path))
@click.option(
    "--repos",
    required=True,
    type=click.Path(path_type=Path),
    help="folder of local clones or mirrors, named owner__name or owner/name",
)
@click.option(
    "--env-recipe",
    required=True,
    type=click.Path(path_type=Path),
    help="TOML: each repository's setup commands, runner and check (see docs/suites/imported.md)",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="the suite folder to write (default ./swe-bench-suite)",
)
@click.option(
    "--env-cache",
    type=click.Path(path_type=Path),
    help="where environments are built (default ~/.cache/garuda-evals/swe-envs)",
)
@click.option("--max-tasks", type=click.IntRange(1), help="import at most this many instances")
@click.option("--filter", "filter", help="only instance ids this regular expression finds")
@click.option(
    "--no-check", is_flag=True, help="save the tasks without judging them (run suite check later)"
)
@click.option(
    "--parallel", type=click.IntRange(1, 64), default=2, show_default=True, help="checks at once"
)
@click.option("--name", help="the suite's name (default: the folder's)")
def swe_bench_command(**options: Any) -> int:
    """Import SWE-bench instances (JSON lines) as a suite of tasks.

    Each instance's workspace is its repository at base_commit, its prompt the problem
    statement, its reference solution the patch; the tests of test_patch are held out (only
    the judge writes them), and a PASS needs every FAIL_TO_PASS and PASS_TO_PASS test
    passed. Each task is judged as shipped (FAIL) and solved (PASS) before it is kept;
    an instance that cannot be kept is listed with its reason and never run.

    Exit codes: 0 a suite with at least one task was saved, 1 none (or bad input).
    """
    from garuda_evals_swebench.builder import SweBenchBuilder

    return SweBenchBuilder().build(options, cwd=Path.cwd(), echo=click.echo)
