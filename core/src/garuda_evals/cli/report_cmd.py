"""``garuda report RUN [RUN_B]``: a saved run (or two, as A/B) in any report format."""

from __future__ import annotations

from pathlib import Path

import click


def write_output(output: Path, text: str) -> None:
    """Write ``text`` to ``-o FILE``, making its missing folders; one line naming the flag
    when it cannot be written."""
    from garuda_evals.errors import UsageError

    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"-o {output}: cannot write it: {error.strerror or error}") from error


@click.command("report")
@click.argument("run")
@click.argument("run_b", required=False)
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
    help="write to this file instead of stdout (missing folders are made)",
)
def report_command(run: str, run_b: str | None, format_name: str, output: Path | None) -> int:
    """Show a saved run (a run id as `garuda runs` lists it, its folder or its report.json);
    with two runs, the A/B page."""
    from garuda_evals.plugins.manager import get_registry
    from garuda_evals.runner.run_folder import find_report
    from garuda_evals.runner.saved_report import read_report
    from garuda_evals.runner.session import choose_formatter

    formatter = choose_formatter(get_registry(), format_name, flag="--format")
    file = find_report(Path.cwd(), run, "report")
    if run_b is None:
        text = formatter.render_run(read_report(file), file.parent)
    else:
        file_b = find_report(Path.cwd(), run_b, "report")
        text = formatter.render_pair(
            read_report(file), read_report(file_b), (file.parent, file_b.parent)
        )
    if output is None:
        click.echo(text, nl=False)
    else:
        write_output(output, text)
        click.echo(f"report: {output}", err=True)
    return 0
