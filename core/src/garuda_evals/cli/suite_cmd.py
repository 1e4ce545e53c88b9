"""``garuda suite check SUITE_OR_FOLDER``: is a suite sound? (see garuda_evals.suites.soundness)."""

from __future__ import annotations

from pathlib import Path

import anyio
import click

from garuda_evals.errors import UsageError

EXIT_SOUND, EXIT_UNSOUND = 0, 2


@click.group("suite")
def suite_group() -> None:
    """Tools for suite authors."""


@suite_group.command("check")
@click.argument("suite_name", metavar="SUITE_OR_FOLDER")
@click.option(
    "--repeat",
    type=click.IntRange(1, 100),
    default=3,
    show_default=True,
    help="solved runs per task (a task that passes only some of them is flaky)",
)
@click.option(
    "--executor",
    type=click.Choice(["auto", "os", "host"]),
    default="auto",
    show_default=True,
    help="where checks run, as with garuda eval",
)
@click.option(
    "--parallel", type=click.IntRange(1, 64), default=2, show_default=True, help="tasks at once"
)
@click.option("-t", "--task", "task_ids", multiple=True, help="only this task (repeatable)")
@click.option(
    "--pin",
    is_flag=True,
    help="write expected-tests.json from the solved runs (a folder suite only)",
)
def suite_check_command(
    suite_name: str,
    repeat: int,
    executor: str,
    parallel: int,
    task_ids: tuple[str, ...],
    pin: bool,
) -> int:
    """Each task must FAIL as shipped and PASS with its reference solution every time.

    Exit code 0: every task is sound; 2: a problem, named per task; 1: cannot start.
    """
    from garuda_evals.plugins.manager import get_registry
    from garuda_evals.runner.executor_choice import choose_executor
    from garuda_evals.runner.paths import hidden_project
    from garuda_evals.runner.selection import load_suite
    from garuda_evals.runner.toolchain_check import check_toolchains
    from garuda_evals.suites.folder import TASK_FILE, FolderSuite
    from garuda_evals.suites.pinning import PIN_FILE, write_pins
    from garuda_evals.suites.soundness import (
        STALE_PINS,
        SuiteSoundness,
        TaskSoundness,
        check_suite,
    )

    registry = get_registry()
    try:
        suite = load_suite(suite_name, registry.suites(), registry.suite_builders())
    except UsageError as error:
        raise UsageError(str(error).replace(f"-s {suite_name}:", f"{suite_name}:", 1)) from None
    root = getattr(suite, "root", None)
    if pin and not isinstance(root, Path):
        raise UsageError(f"--pin: suite {suite.name} has no folder to write pins into")
    no_manifest = suite.folders_without_manifest() if isinstance(suite, FolderSuite) else []
    known = {task.id for task in suite.tasks()}
    unknown = [task_id for task_id in task_ids if task_id not in known]
    if unknown:
        hint = next((f" ({f} has no {TASK_FILE})" for f in no_manifest if f.name == unknown[0]), "")
        raise UsageError(f"-t {unknown[0]}: no such task in suite {suite.name}{hint}")
    choice = choose_executor(executor, registry)
    click.echo(f"executor: {choice.backend.name} ({choice.reason})", err=True)
    required = {name for task in suite.tasks() for name in task.requires}
    anyio.run(check_toolchains, registry, required)
    for folder in no_manifest:
        click.echo(f"{folder}: not a task, it has no {TASK_FILE} (add one or move the folder out)")
    width = max((len(task_id) for task_id in known), default=0)

    def show(item: TaskSoundness) -> None:
        state = "sound" if item.sound else "PROBLEM"
        click.echo(f"{item.task:<{width}}  {state:<7}  {item.summary()}")
        for problem in item.problems:
            click.echo(f"{'':<{width}}  - {problem}")

    async def run() -> SuiteSoundness:
        return await check_suite(
            suite,
            backend=choice.backend,
            repeat=repeat,
            parallel=parallel,
            task_ids=task_ids,
            hidden=hidden_project(Path.cwd()),
            on_task=show,
        )

    result = anyio.run(run)
    bad = [
        item.task
        for item in result.tasks
        if any(not (pin and problem.startswith(STALE_PINS)) for problem in item.problems)
    ]
    if pin and isinstance(root, Path):
        if bad or no_manifest:
            click.echo(f"--pin: {root / PIN_FILE} not written: the suite has problems")
        else:
            pins = {
                task.id: task.expected_tests or [] for task in suite.tasks() if task.expected_tests
            }
            pins.update(result.pins())
            click.echo(f"pinned: {write_pins(root, pins)}")
    if bad or no_manifest:
        found = []
        if bad:
            found.append(
                f"{len(bad)} of {len(result.tasks)} task(s) have problems: {', '.join(bad)}"
            )
        if no_manifest:
            names = ", ".join(folder.name for folder in no_manifest)
            found.append(f"{len(no_manifest)} folder(s) without {TASK_FILE}: {names}")
        click.echo(f"suite {suite.name}: " + "; ".join(found))
        return EXIT_UNSOUND
    click.echo(f"suite {suite.name}: {len(result.tasks)} task(s) sound ({result.executor})")
    return EXIT_SOUND
