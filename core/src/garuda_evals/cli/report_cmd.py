"""``garuda report RUN [RUN_B]``: a saved run (or two, as A/B) in any report format."""

from __future__ import annotations

from pathlib import Path

import click


def run_folder(path: Path) -> Path:
    """The run folder of a report.json or of a run folder."""
    return path if path.is_dir() else path.parent


@click.command("report")
@click.argument("run", type=click.Path(path_type=Path))
@click.argument("run_b", required=False, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "format_name",
    default="table",
    show_default=True,
    help="table, json, or a plugin's (html, junit, markdown)",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="write to this file instead of stdout",
)
def report_command(run: Path, run_b: Path | None, format_name: str, output: Path | None) -> int:
    """Show a saved run (its report.json or run folder); with two runs, the A/B page."""
    from garuda_evals.plugins.manager import get_registry
    from garuda_evals.report.compare import load_report
    from garuda_evals.runner.session import choose_formatter

    formatter = choose_formatter(get_registry(), format_name, flag="--format")
    if run_b is None:
        text = formatter.render_run(load_report(run), run_folder(run))
    else:
        text = formatter.render_pair(
            load_report(run), load_report(run_b), (run_folder(run), run_folder(run_b))
        )
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
        click.echo(f"report: {output}", err=True)
    return 0
