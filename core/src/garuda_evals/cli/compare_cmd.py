"""``garuda compare A B``: two saved runs, paired task by task (A/B)."""

from __future__ import annotations

import json
from pathlib import Path

import click


@click.command("compare")
@click.argument("run_a")
@click.argument("run_b")
@click.option(
    "--force",
    is_flag=True,
    help="compare even when the task sets, task versions or toolchains differ",
)
@click.option("--json", "as_json", is_flag=True, help="print the comparison as JSON")
def compare_command(run_a: str, run_b: str, force: bool, as_json: bool) -> int:
    """Compare two runs: each a run id as `garuda runs` lists it, its folder or its
    report.json. Exit 1 when refused."""
    from garuda_evals.report.compare import compare_reports, render
    from garuda_evals.runner.run_folder import find_report
    from garuda_evals.runner.saved_report import read_report

    a, b = (read_report(find_report(Path.cwd(), name, "compare")) for name in (run_a, run_b))
    comparison = compare_reports(a, b, force=force)
    if as_json:
        click.echo(json.dumps(comparison.to_json_dict(), indent=2))
    else:
        click.echo(render(comparison, a, b), nl=False)
    return 0
