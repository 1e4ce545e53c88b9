"""``garuda runs``: the saved runs of this project, newest first; ``--prune`` removes old ones."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("runs")
@click.option("--prune", is_flag=True, help="remove old runs (needs --keep-last N)")
@click.option(
    "--keep-last", type=click.IntRange(0), metavar="N", help="with --prune: the runs to keep"
)
def runs_command(prune: bool, keep_last: int | None) -> int:
    """List runs: id, date, suites, agent and model, both rates, cost, interrupted or not.

    Exit codes: 0 done, 1 bad flags.
    """
    from garuda_evals.errors import UsageError
    from garuda_evals.runner import listing
    from garuda_evals.runner.paths import evals_dir

    evals = evals_dir(Path.cwd())
    if keep_last is not None and not prune:
        raise UsageError("--keep-last: only with --prune")
    if prune:
        if keep_last is None:
            raise UsageError("--prune: say how many runs to keep with --keep-last N")
        removed = listing.prune(evals, keep_last)
        for folder in removed:
            click.echo(f"removed {folder}")
        click.echo(f"{len(removed)} run(s) removed, {len(listing.run_folders(evals))} kept")
        return 0
    folders = listing.run_folders(evals)
    if not folders:
        click.echo(f"no runs in {evals}")
        return 0
    click.echo(listing.table([listing.describe(folder) for folder in folders]), nl=False)
    return 0
