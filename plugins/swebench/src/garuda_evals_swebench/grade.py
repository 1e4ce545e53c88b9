"""``garuda grade PREDICTIONS -s SUITE``: judge patches made elsewhere, as an ordinary run.

It is ``garuda eval -s SUITE --agent swe-prediction --predictions FILE`` on the suite's tasks
that have a prediction: the run folder, report.json, ``garuda report``, ``compare`` and
``regrade`` are a run's. A prediction for an instance the import skipped is named with the
import's reason and not graded (never counted against the patch); one for an instance the
suite does not hold is named too.
"""

from __future__ import annotations

from pathlib import Path

import click

from garuda_evals.api import UsageError

SHOWN = 10


@click.command("grade")
@click.argument("predictions", type=click.Path(path_type=Path))
@click.option("-s", "--suite", "suite", required=True, help="an imported suite's folder")
@click.option(
    "--parallel", type=click.IntRange(1, 64), default=1, show_default=True, help="runs at once"
)
@click.option(
    "--executor",
    type=click.Choice(["auto", "os", "host"]),
    default="auto",
    show_default=True,
    help="where checks run, as with garuda eval",
)
@click.option("--backend", default="local", show_default=True, help="local, or ray")
@click.option(
    "--report-format", default="table", show_default=True, help="table, json, or a plugin's"
)
@click.option("--keep", is_flag=True, help="keep scratch folders")
@click.option("--strict", is_flag=True, help="count a PASS the tamper lint marked (PASS?) as FAIL")
@click.pass_context
def grade_command(
    ctx: click.Context,
    predictions: Path,
    suite: str,
    parallel: int,
    executor: str,
    backend: str,
    report_format: str,
    keep: bool,
    strict: bool,
) -> int:
    """Judge SWE-bench predictions (instance_id, model_name_or_path, model_patch) on SUITE.

    Writes an ordinary run folder (garuda report, compare and regrade work on it).
    Exit codes: 0 every graded patch passed, 2 otherwise, 1 could not start.
    """
    from garuda_evals_swebench.builder import SweBenchBuilder
    from garuda_evals_swebench.predictions import load_predictions
    from garuda_evals_swebench.suitefile import SUITE_FILE

    loaded = load_predictions(predictions)
    if not (Path(suite) / SUITE_FILE).is_file():
        raise UsageError(
            f"-s {suite}: not a suite folder of garuda import swe-bench (no {SUITE_FILE})"
        )
    chosen = SweBenchBuilder().open(Path(suite))
    known = {task.id for task in chosen.tasks()}
    skipped = {item.id: item.reason for item in chosen.saved.skipped}
    graded = [instance for instance in loaded if instance in known]
    for instance in [i for i in loaded if i in skipped][:SHOWN]:
        click.echo(f"not graded: {instance}: skipped at import: {skipped[instance]}", err=True)
    unknown = [i for i in loaded if i not in known and i not in skipped]
    if unknown:
        more = f" (+{len(unknown) - SHOWN} more)" if len(unknown) > SHOWN else ""
        click.echo(
            f"not graded: not in suite {chosen.name}: {', '.join(unknown[:SHOWN])}{more}", err=True
        )
    if not graded:
        raise UsageError(f"{predictions}: no prediction is for a task of suite {chosen.name}")
    missing = len(known) - len(graded)
    if missing:
        click.echo(
            f"{missing} task(s) of suite {chosen.name} have no prediction and are not graded",
            err=True,
        )
    args = [
        "-s", suite, "--agent", "swe-prediction", "--predictions", str(predictions.resolve()),
        "-t", ",".join(graded), "--parallel", str(parallel), "--executor", executor,
        "--backend", backend, "--report-format", report_format,
        *(["--keep"] if keep else []), *(["--strict"] if strict else []),
    ]  # fmt: skip
    root = ctx.find_root().command
    assert isinstance(root, click.Group)
    eval_command = root.get_command(ctx, "eval")
    assert eval_command is not None
    code = eval_command.main(args=args, prog_name="garuda eval", standalone_mode=False)
    return code if isinstance(code, int) else 0
