"""Choose the suites and tasks of a run from ``-s`` and ``-t``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from garuda_evals.errors import GarudaError, UsageError
from garuda_evals.models.task import Task
from garuda_evals.plugins.known import SUITES, TOOLCHAINS, install_hint
from garuda_evals.plugins.manager import PluginRegistry, Registered
from garuda_evals.records import SuiteBuilderRecord, SuiteRecord
from garuda_evals.suites.base import Suite
from garuda_evals.suites.folder import SUITE_FILE, load_folder_suite

ALL = "all"


@dataclass(frozen=True)
class Selected:
    """A task and the suite that owns it."""

    suite: Suite
    task: Task


def _looks_like_path(value: str) -> bool:
    return "/" in value or value.startswith(".") or Path(value).is_dir()


def load_suite(
    name: str,
    suites: dict[str, Registered[SuiteRecord]],
    builders: dict[str, Registered[SuiteBuilderRecord]] | None = None,
) -> Suite:
    """A registered suite by name, or a suite folder by path: a task-format folder, or a
    folder a suite builder saved (it holds the file the builder's record names, ``saved``)."""
    if name in suites:
        suite: Suite = suites[name].record.load()
        return suite
    if _looks_like_path(name):
        folder = Path(name)
        if folder.is_dir() and not (folder / SUITE_FILE).exists():
            for registered in (builders or {}).values():
                record = registered.record
                if record.saved and (folder / record.saved).is_file():
                    return record.load().open(folder)
        return load_folder_suite(folder)
    if not suites:
        raise UsageError(
            f"-s {name}: unknown suite{install_hint(SUITES, name)}; no suites are installed "
            "(garuda eval --list says what to install), or give a suite folder's path"
        )
    choices = ", ".join([*sorted(suites), ALL])
    raise UsageError(
        f"-s {name}: unknown suite{install_hint(SUITES, name)}; choose one of: {choices}, "
        "or give a suite folder's path"
    )


def suite_names(requested: list[str], suites: dict[str, Registered[SuiteRecord]]) -> list[str]:
    """Expand ``all`` to every registered suite that belongs in it; keep order, no repeats."""
    names: list[str] = []
    for name in requested:
        if name == ALL:
            every = [n for n, r in sorted(suites.items()) if r.record.in_all]
            if not every:
                raise UsageError("-s all: no suites installed (install garuda-evals-python)")
            names.extend(every)
        else:
            names.append(name)
    return list(dict.fromkeys(names))


def select(registry: PluginRegistry, requested: list[str], task_ids: list[str]) -> list[Selected]:
    """The tasks to run, in suite order then task order; ``-t`` filters by task id."""
    suites = registry.suites()
    chosen: list[Selected] = []
    for name in suite_names(requested, suites):
        suite = load_suite(name, suites, registry.suite_builders())
        chosen.extend(Selected(suite, task) for task in suite.tasks())
    if task_ids:
        known = {item.task.id for item in chosen}
        unknown = [t for t in task_ids if t not in known]
        if unknown:
            listing = ", ".join(sorted(known)[:30])
            raise UsageError(
                f"-t {unknown[0]}: no such task in the chosen suites; tasks: {listing}"
            )
        chosen = [item for item in chosen if item.task.id in task_ids]
    if not chosen:
        raise GarudaError("no tasks to run")
    check_task_names(registry, [item.task for item in chosen])
    return chosen


def check_task_names(registry: PluginRegistry, tasks: list[Task]) -> None:
    """Each task's check runner and toolchains exist; an error names the task's file and field."""
    runners, toolchains = registry.check_runners(), registry.toolchains()
    for task in tasks:
        where = task.source or f"task {task.id} of suite {task.suite}"
        if task.check.runner not in runners:
            raise UsageError(
                f"{where}: field 'check.runner': unknown check runner '{task.check.runner}'; "
                f"choose one of: {', '.join(sorted(runners))}"
            )
        for name in task.requires:
            if name not in toolchains:
                raise UsageError(
                    f"{where}: field 'requires': no installed plugin provides the toolchain "
                    f"'{name}'{install_hint(TOOLCHAINS, name)}"
                )
