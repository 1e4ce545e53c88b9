"""``garuda regrade RUN``: judge a saved run's stored changes again with today's check."""

from __future__ import annotations

from pathlib import Path

import anyio
import click


@click.command("regrade")
@click.argument("run")
def regrade_command(run: str) -> int:
    """Judge RUN (a run id as `garuda runs` lists it, or its folder) again from its stored
    changes; usage and cost are kept. A run a limit stopped (the task time limit, the spend
    cap, Ctrl-C) keeps its verdict.

    Saves a new report linked to RUN (regradeOf) and prints how many runs changed.
    Exit codes: 0 done, 1 the run cannot be regraded.
    """
    from garuda_evals.plugins.manager import get_registry
    from garuda_evals.report.table import rates_line
    from garuda_evals.runner.regrade import regrade

    registry = get_registry()
    done = anyio.run(lambda: regrade(run, registry=registry, cwd=Path.cwd()))
    click.echo(done.summary(), nl=False)
    click.echo(rates_line(done.report.summary))
    click.echo(f"report: {done.path} (regrade of {done.report.regrade_of})", err=True)
    return 0
