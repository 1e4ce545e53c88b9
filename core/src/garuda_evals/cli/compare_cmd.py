"""``garuda compare A B``: two saved runs side by side (A/B)."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("compare")
@click.argument("run_a", type=click.Path(path_type=Path))
@click.argument("run_b", type=click.Path(path_type=Path))
def compare_command(run_a: Path, run_b: Path) -> int:
    """Compare two runs: a report.json each, or its run folder."""
    from garuda_evals.report.compare import compare, load_report

    click.echo(compare(load_report(run_a), load_report(run_b)), nl=False)
    return 0
