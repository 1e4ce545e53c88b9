"""``garuda regrade RUN``: judge a saved run's stored changes again with today's check.

Each judged run's folder is rebuilt from its task and its stored change, and today's judge
runs on it. The new report is saved as a new run linked to the original (``regradeOf``);
usage and cost stay the original's: nothing calls the agent again.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from garuda_evals.environment import ENV_ALLOW, check_environment
from garuda_evals.errors import UsageError
from garuda_evals.executors.base import SandboxPolicy
from garuda_evals.models.report import Report
from garuda_evals.models.result import Status, TaskResult
from garuda_evals.models.settings import RunSettings
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.removal import remove_tree
from garuda_evals.runner.check import Judge, judge_in_copy, strict
from garuda_evals.runner.executor_choice import choose_executor
from garuda_evals.runner.paths import evals_dir, hidden_project, new_run_id
from garuda_evals.runner.regrade_rules import direction, regradable, regraded_row
from garuda_evals.runner.report_build import REPORT_FILE, regraded_report, save_report, versions
from garuda_evals.runner.run_folder import find_report
from garuda_evals.runner.saved_report import read_report
from garuda_evals.runner.selection import Selected, select
from garuda_evals.runner.selftest import apply_selftest, task_version
from garuda_evals.runner.stored_change import ChangeError, apply_stored_change
from garuda_evals.runner.toolchain_check import check_toolchains


@dataclass
class Regraded:
    """The new report, where it is, and the runs whose status changed."""

    report: Report
    path: Path
    up: list[str] = field(default_factory=list)
    down: list[str] = field(default_factory=list)
    other: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """``3 changed: 1 up, 2 down`` and one line per changed run."""
        changed = len(self.up) + len(self.down) + len(self.other)
        head = f"{changed} changed: {len(self.up)} up, {len(self.down)} down"
        head += f", {len(self.other)} other" if self.other else ""
        lines = [head]
        lines += [f"  up    {line}" for line in self.up]
        lines += [f"  down  {line}" for line in self.down]
        lines += [f"  other {line}" for line in self.other]
        return "\n".join(lines) + "\n"


def _policy(settings: RunSettings, cwd: Path) -> Callable[[Path], SandboxPolicy]:
    hidden = hidden_project(cwd)
    allow = (*ENV_ALLOW, *settings.agent_env)

    def make(folder: Path) -> SandboxPolicy:
        return SandboxPolicy(workspace=folder, hidden=hidden, env_allow=allow)

    return make


async def _regrade_one(
    result: TaskResult,
    item: Selected,
    patch: Path,
    judge: Judge,
    task_timeout_s: float,
    settings: RunSettings,
) -> TaskResult:
    folder = Path(tempfile.mkdtemp(prefix=f"garuda-regrade-{item.task.id}-"))
    try:
        item.suite.materialize(item.task, folder)
        try:
            await apply_stored_change(patch, folder)
        except (ChangeError, OSError) as error:
            failure = f"the stored change no longer applies to the task: {error}"
            return result.model_copy(update={"status": Status.ERR, "failure": failure})
        verdict = await judge_in_copy(item.task, folder, judge)
        verdict = strict(verdict) if settings.strict else verdict
    finally:
        item.suite.release(item.task, folder)
        remove_tree(folder)  # the stored change may hold a tree too deep for rmtree
    return regraded_row(result, verdict, task_timeout_s)


def _task_versions(
    original: Report, selected: list[Selected], judged: set[tuple[str, str]]
) -> dict[tuple[str, str], str]:
    """Today's version of each task judged again; the original's for the tasks kept as
    they were (their rows are the original run's)."""
    versions = {(mean.suite, mean.task): mean.task_version for mean in original.tasks}
    for item in selected:
        key = (item.task.suite, item.task.id)
        if key in judged:
            versions[key] = task_version(item.task)
    return versions


async def regrade(run: str, *, registry: PluginRegistry, cwd: Path) -> Regraded:
    """Judge every judged run of ``run`` again; save the new report as a new run."""
    file = find_report(cwd, run, "regrade")
    run_dir = file.parent
    original = read_report(file)
    limit = original.task_timeout_s
    if not any(regradable(result, limit) for result in original.results):
        raise UsageError(
            f"regrade {run}: no run of {original.run_id} has a kept change to judge (only "
            "PASS and FAIL runs of a garuda that keeps changes have one; a run a limit "
            "stopped keeps its verdict)"
        )
    settings = original.settings
    selected = select(registry, settings.suites, settings.task_ids)
    tasks = {(item.task.suite, item.task.id): item for item in selected}
    records = registry.check_runners()
    choice = choose_executor(settings.executor, registry)
    toolchains = await check_toolchains(
        registry, {name for item in selected for name in item.task.requires}
    )
    env = check_environment()
    make_policy = _policy(settings, cwd)
    new_id = new_run_id()
    new_dir = evals_dir(cwd) / new_id
    started = time.time()
    outcome = Regraded(report=original, path=new_dir / REPORT_FILE)
    results: list[TaskResult] = []
    judged: set[tuple[str, str]] = set()
    for result in original.results:
        item = tasks.get((result.suite, result.task))
        if not regradable(result, limit) or item is None or result.change is None:
            results.append(result)
            continue
        judged.add((result.suite, result.task))
        patch = run_dir / result.change
        runner = records[item.task.check.runner].record.load()
        judge = Judge(item.suite, choice.backend, make_policy, runner, env)
        new = await _regrade_one(result, item, patch, judge, limit, settings)
        copied = new_dir / result.change
        copied.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(patch, copied)
        results.append(new)
        moved = direction(result.status, new.status)
        if moved is not None:
            line = f"{result.suite}/{result.task}#{result.repeat}: "
            line += f"{result.status.value} -> {new.status.value}"
            {"up": outcome.up, "down": outcome.down, "other": outcome.other}[moved].append(line)
    report = regraded_report(
        original,
        run_id=new_id,
        started=started,
        finished=time.time(),
        results=results,
        versions_used=versions(registry, drivers=original.versions.keys()),
        toolchains=toolchains,
    )
    apply_selftest(report, _task_versions(original, selected, judged), cwd)
    outcome.report = report
    outcome.path = save_report(report, new_dir)
    return outcome
