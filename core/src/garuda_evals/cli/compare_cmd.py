"""``garuda compare A B``: two saved runs, paired task by task (A/B)."""

from __future__ import annotations

import json
from pathlib import Path

import click


@click.command("compare")
@click.argument("run_a", type=click.Path(path_type=Path))
@click.argument("run_b", type=click.Path(path_type=Path))
@click.option(
    "--force",
    is_flag=True,
    help="compare even when the task sets, task versions or toolchains differ",
)
@click.option("--json", "as_json", is_flag=True, help="print the comparison as JSON")
def compare_command(run_a: Path, run_b: Path, force: bool, as_json: bool) -> int:
    """Compare two runs: a report.json each, or its run folder. Exit 1 when refused."""
    from garuda_evals.report.compare import compare_reports, load_report, render

    a, b = load_report(run_a), load_report(run_b)
    comparison = compare_reports(a, b, force=force)
    if as_json:
        click.echo(json.dumps(comparison.to_json_dict(), indent=2))
    else:
        click.echo(render(comparison, a, b), nl=False)
    return 0
