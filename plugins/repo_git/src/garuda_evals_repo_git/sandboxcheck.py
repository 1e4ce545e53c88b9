"""After the proofs: each kept task's saved check, run where ``-s repo`` will run it.

A proof runs the project's command on the host. The saved check runs under the default
executor (the OS sandbox when one works): the user's checkout hidden, writes outside the
task's folder refused, no network. A test that needs what the sandbox takes away proves on
the host and then fails every run of the suite, the oracle's too. So each kept task is
judged as ``garuda suite check`` judges it, once with the reference change (it must PASS)
and once as shipped (it must FAIL); a task that does not is dropped with the reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import anyio

from garuda_evals.api import TaskSoundness, check_suite, choose_executor, get_registry
from garuda_evals_repo_git.suite import RepoSuite
from garuda_evals_repo_git.suitefile import RepoSuiteFile, RepoTask

FAILS_SOLVED = "the check fails in the sandbox with the reference change"
PASSES_SHIPPED = "the check passes in the sandbox without the reference change"
NO_EVIDENCE = "the check reports no test in the sandbox"


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


def keep_sound(
    root: Path, saved: RepoSuiteFile, parallel: int, echo: Callable[[str], None]
) -> tuple[list[RepoTask], Counter[str]]:
    """The tasks whose check passes solved and fails shipped under the default executor,
    and a count per reason of the others (one line per task as each is judged)."""
    backend = choose_executor("auto", get_registry()).backend
    suite = RepoSuite(root, saved)
    total = len(saved.tasks)
    echo(f"Checking the {total} kept task(s) as -s repo runs them ({backend.name}):")
    dropped: Counter[str] = Counter()
    bad: set[str] = set()
    done = 0

    def show(item: TaskSoundness) -> None:
        nonlocal done
        done += 1
        found = _reason(item)
        if found is None:
            echo(f"  [{done}/{total}] {item.task}: noop FAIL, oracle PASS")
            return
        reason, detail = found
        dropped[reason] += 1
        bad.add(item.task)
        first = detail.strip().splitlines()[0] if detail.strip() else ""
        echo(f"  [{done}/{total}] {item.task}: dropped: {reason}{f': {first}' if first else ''}")

    anyio.run(
        lambda: check_suite(suite, backend=backend, repeat=1, parallel=parallel, on_task=show)
    )
    return [task for task in saved.tasks if task.id not in bad], dropped
