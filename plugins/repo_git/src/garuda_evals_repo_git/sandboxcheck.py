"""After the proofs: each kept task's saved check, run where ``-s repo`` will run it.

A proof runs the project's command on the host. The saved check runs under the default
executor (the OS sandbox when one works): the user's checkout hidden, writes outside the
task's folder refused, no network. A test that needs what the sandbox takes away proves on
the host and then fails every run of the suite, the oracle's too. So each kept task is
judged as ``garuda suite check`` judges it, once with the reference change (it must PASS)
and once as shipped (it must FAIL); a task that does not is dropped with the reason.

The verdicts are cached with the proof's, by the task as saved (its check, its files, its
held-out tests) and the environment (the executor, garuda's version, the linked dependency
folders): the same task in the same environment is not checked again.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

import anyio

from garuda_evals.api import TaskSoundness, check_suite, choose_executor, get_registry
from garuda_evals_repo_git.cache import VerdictCache
from garuda_evals_repo_git.suite import RepoSuite
from garuda_evals_repo_git.suitefile import RepoSuiteFile, RepoTask

FAILS_SOLVED = "the check fails in the sandbox with the reference change"
PASSES_SHIPPED = "the check passes in the sandbox without the reference change"
NO_EVIDENCE = "the check reports no test in the sandbox"
# What the task's judgement does not read.
NOT_JUDGED = {"prompt", "subject", "strength", "mutants"}


def _reason(item: TaskSoundness) -> tuple[str, str] | None:
    """``(reason counted, its detail)`` when the task must be dropped, else None."""
    solved = item.solved[0]
    if not solved.passed:
        check = solved.check
        if check is not None and not check.tests_ran and not check.timed_out:
            return NO_EVIDENCE, solved.reason or ""
        return FAILS_SOLVED, solved.reason or ""
    if item.shipped.passed:
        return PASSES_SHIPPED, ""
    return None


def _timed_out(item: TaskSoundness) -> bool:
    """Whether a run of the judgement hit its limit (a verdict a busy machine may change)."""
    runs = [*item.solved, item.shipped]
    return any(run.check is not None and run.check.timed_out for run in runs)


def environment_digest(root: Path, backend: str, task: RepoTask, dependencies: list[str]) -> str:
    """What the sandbox's verdict on ``task`` depends on, as one hash: the task as judged,
    the executor, garuda's version and each linked dependency folder (path, last change)."""
    folders = []
    for name in dependencies:
        path = root / name
        stamp = path.stat().st_mtime_ns if path.exists() else None
        folders.append([name, str(path.resolve()), stamp])
    parts = {
        "task": task.model_dump(mode="json", exclude=NOT_JUDGED),
        "backend": backend,
        "garuda": version("garuda-evals"),
        "repo_git": version("garuda-evals-repo-git"),
        "dependencies": folders,
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:32]


def keep_sound(
    root: Path,
    saved: RepoSuiteFile,
    parallel: int,
    echo: Callable[[str], None],
    cache: VerdictCache | None = None,
    key: str = "",
    dependencies: list[str] | None = None,
) -> tuple[list[RepoTask], Counter[str]]:
    """The tasks whose check passes solved and fails shipped under the default executor,
    and a count per reason of the others (one line per task as each is judged).

    With ``cache`` (``key``: the test command's cache key), a verdict reached before for the
    same task and environment is reused (its line says ``(cached)``) and new ones are kept.
    """
    backend = choose_executor("auto", get_registry()).backend
    total = len(saved.tasks)
    echo(f"Checking the {total} kept task(s) as -s repo runs them ({backend.name}):")
    dropped: Counter[str] = Counter()
    bad: set[str] = set()
    done = 0
    digests = {
        task.id: environment_digest(root, backend.name, task, dependencies or [])
        for task in saved.tasks
    }
    by_id = {task.id: task for task in saved.tasks}

    def line(task: str, found: tuple[str, str] | None, cached: str = "") -> None:
        nonlocal done
        done += 1
        if found is None:
            echo(f"  [{done}/{total}] {task}: noop FAIL, oracle PASS{cached}")
            return
        reason, detail = found
        dropped[reason] += 1
        bad.add(task)
        first = detail.strip().splitlines()[0] if detail.strip() else ""
        echo(f"  [{done}/{total}] {task}: dropped: {reason}{f': {first}' if first else ''}{cached}")

    def remember(task: RepoTask, reason: str) -> None:
        verdict = cache.get(task.commit, key) if cache is not None else None
        if cache is not None and verdict is not None:
            judged = {**verdict.sandbox, digests[task.id]: reason}
            cache.put(task.commit, key, verdict.model_copy(update={"sandbox": judged}))

    todo: list[RepoTask] = []
    for task in saved.tasks:
        verdict = cache.get(task.commit, key) if cache is not None else None
        known = verdict.sandbox.get(digests[task.id]) if verdict is not None else None
        if known is None:
            todo.append(task)
        else:
            line(task.id, (known, "") if known else None, " (cached)")

    def show(item: TaskSoundness) -> None:
        found = _reason(item)
        if not _timed_out(item):
            remember(by_id[item.task], found[0] if found else "")
        line(item.task, found)

    if todo:
        suite = RepoSuite(root, saved.model_copy(update={"tasks": todo}))
        anyio.run(
            lambda: check_suite(suite, backend=backend, repeat=1, parallel=parallel, on_task=show)
        )
    return [task for task in saved.tasks if task.id not in bad], dropped
