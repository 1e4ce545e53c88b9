"""Whether a suite is sound: each task fails as shipped, passes solved, every time, on evidence.

For every task the check runs as a run's judge runs it, under the chosen executor: once on
the task as shipped (the noop agent's folder: it must FAIL) and ``repeat`` times with the
reference solution (the oracle's: it must PASS each time). The problems, by name:

- ``passes unsolved``: the check passes without the fix (it tests nothing the task asks);
- ``no reference solution``: the task has none to apply (a folder task's ``solution/`` is
  missing or empty), so nothing shows the task can be solved;
- ``fails solved``: the reference solution fails;
- ``flaky``: the reference solution passed some runs and failed others, or different tests
  passed from one run to the next;
- ``no test evidence``: the check passed, or failed, without a runner report of any test;
- ``reads outside its folder``: the solved check fails in the OS sandbox but passes on the
  host (it reads something a run's sandbox does not show);
- ``pinned tests are stale``: ``expected-tests.json`` does not list the tests the
  reference solution makes pass;
- ``held-out test passes unsolved``: a held-out test passes without the fix (it measures
  nothing the task asks, and code under test could tell it from the canaries);
- ``canary passes solved``: a canary shaped like the held-out tests passes with the
  reference solution (it must fail there, or tampering that flips results goes unseen);
- ``canary passes unsolved``: a canary passes as shipped (it shows itself: code under test
  that has not done the work knows it is a canary);
- ``held-out tests without canaries``: nothing then stops code under test from flipping
  the held-out tests' failures to passes (not asked of tests with fixed ids, an imported
  benchmark's, which no canary can look like: see trust.md);
- ``cannot be judged``: a task file the check runner cannot use (``FileFormatError``, such
  as a held-out test file it cannot split).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import anyio

from garuda_evals.errors import FileFormatError
from garuda_evals.executors.base import ExecutorBackend
from garuda_evals.executors.host import HostBackend
from garuda_evals.judging.verdict import listed
from garuda_evals.models.task import Task
from garuda_evals.runner.check import Verdict
from garuda_evals.suites.base import Suite
from garuda_evals.suites.folder import TASK_FILE

PASSES_UNSOLVED = "passes unsolved"
NO_SOLUTION = "no reference solution"
FAILS_SOLVED = "fails solved"
FLAKY = "flaky"
NO_EVIDENCE = "no test evidence"
READS_OUTSIDE = "reads outside its folder"
STALE_PINS = "pinned tests are stale"
NO_EVIDENCE_REASON = "no evidence that tests ran"
HELD_OUT_PASSES_UNSOLVED = "held-out test passes unsolved"
CANARY_PASSES_SOLVED = "canary passes solved"
CANARY_PASSES_UNSOLVED = "canary passes unsolved"
NO_CANARIES = "held-out tests without canaries"
CANNOT_JUDGE = "cannot be judged"


@dataclass(frozen=True)
class TaskSoundness:
    """One task's verdicts and the problems they show (empty: the task is sound)."""

    task: str
    shipped: Verdict
    solved: tuple[Verdict, ...]
    problems: tuple[str, ...]
    passed_tests: tuple[str, ...] = ()
    """Ids the reference solution made pass (the same in every passing run): the pins."""
    pinned: bool = False
    held_out: int = 0
    """Held-out tests the judge ran beside the task's own (as the reference's run names them)."""
    canaries: int = 0
    """Canaries shaped like the held-out tests."""

    @property
    def sound(self) -> bool:
        """No problem found."""
        return not self.problems

    def summary(self) -> str:
        """``noop FAIL · oracle PASS 3/3 · 4 tests``."""
        passes = sum(verdict.passed for verdict in self.solved)
        noop = "PASS" if self.shipped.passed else "FAIL"
        if not self.solved:
            return f"noop {noop} · no reference solution"
        pins = "pinned" if self.pinned else "not pinned"
        held = f" · {self.held_out} held out, {self.canaries} canaries" if self.held_out else ""
        return (
            f"noop {noop} · oracle PASS {passes}/{len(self.solved)} · "
            f"{len(self.passed_tests)} tests ({pins}){held}"
        )


@dataclass(frozen=True)
class SuiteSoundness:
    """Every task's soundness, in the suite's order."""

    suite: str
    executor: str
    tasks: tuple[TaskSoundness, ...] = field(default_factory=tuple)

    @property
    def sound(self) -> bool:
        """Every task is sound."""
        return all(task.sound for task in self.tasks)

    def pins(self) -> dict[str, list[str]]:
        """``task id -> sorted passing test ids`` of the tasks whose solution always passed."""
        return {
            item.task: sorted(item.passed_tests)
            for item in self.tasks
            if item.solved and all(verdict.passed for verdict in item.solved)
        }


def _no_evidence(verdict: Verdict) -> bool:
    """The check had no runner report of any test (or a report with no test in it)."""
    if NO_EVIDENCE_REASON in (verdict.reason or ""):
        return True
    check = verdict.check
    return check is not None and not check.timed_out and not check.tests_ran and verdict.passed


def _first_failure(verdicts: tuple[Verdict, ...]) -> Verdict:
    return next(verdict for verdict in verdicts if not verdict.passed)


def _solved_problems(solved: tuple[Verdict, ...], on_host: Verdict | None) -> list[str]:
    """The problems the solved runs show (``on_host``: one host run after a sandbox failure)."""
    passes = sum(verdict.passed for verdict in solved)
    if passes == 0:
        failure = solved[0]
        if _no_evidence(failure):
            return [f"{NO_EVIDENCE}: {failure.reason}"]
        if on_host is not None and on_host.passed:
            return [
                f"{READS_OUTSIDE}: the solved check passes on the host but fails in the "
                f"sandbox: {failure.reason}"
            ]
        return [f"{FAILS_SOLVED}: {failure.reason}"]
    if passes < len(solved):
        reason = _first_failure(solved).reason
        return [f"{FLAKY}: the reference solution passed {passes} of {len(solved)} runs ({reason})"]
    problems = []
    id_sets = {tuple(sorted(verdict.passed_tests)) for verdict in solved}
    if len(id_sets) > 1:
        problems.append(f"{FLAKY}: different tests passed from one solved run to the next")
    if any(_no_evidence(verdict) for verdict in solved):
        problems.append(f"{NO_EVIDENCE}: the solved check passed with no test reported")
    return problems


def _held_out_problems(task: Task, shipped: Verdict, solved: tuple[Verdict, ...]) -> list[str]:
    """What the held-out tests and their canaries show: each fails unsolved, each canary
    fails solved, and there are canaries at all."""
    held_out = task.held_out
    if held_out is None or not (held_out.tests or held_out.canaries):
        return []
    problems = []
    if held_out.tests and not held_out.canaries and not held_out.fixed_ids:
        problems.append(f"{NO_CANARIES}: add look-alikes that must fail under canaries/")
    for kind, outcomes in (
        (HELD_OUT_PASSES_UNSOLVED, shipped.held_out),
        (CANARY_PASSES_UNSOLVED, shipped.held_out_canaries),
    ):
        passing = sorted(name for name, outcome in outcomes.items() if outcome == "passed")
        if passing:
            problems.append(f"{kind}: {', '.join(passing)}")
    not_failing = sorted(
        {
            f"{name} ({outcome})"
            for verdict in solved
            for name, outcome in verdict.held_out_canaries.items()
            if outcome not in ("failed", "error")
        }
    )
    if not_failing:
        problems.append(f"{CANARY_PASSES_SOLVED}: {', '.join(not_failing)}")
    return problems


def stale_pins(expected: list[str] | None, passed: tuple[str, ...]) -> str | None:
    """The problem when the pinned ids are not those the reference solution made pass,
    naming the pins it did not pass (an imported task's listed tests the runner never
    reported) and the passes not pinned; None when they match or nothing is pinned."""
    if expected is None or sorted(expected) == sorted(passed):
        return None
    parts = []
    not_passed = [test for test in expected if test not in passed]
    if not_passed:
        parts.append(f"pinned but not passed: {listed(not_passed)}")
    not_pinned = sorted(set(passed) - set(expected))
    if not_pinned:
        parts.append(f"passed but not pinned: {listed(not_pinned)}")
    return (
        f"{STALE_PINS}: expected-tests.json does not list the tests the reference solution "
        f"makes pass ({'; '.join(parts)}; refresh with `garuda suite check --pin`)"
    )


def _solution_place(task: Task) -> str:
    """Where a task's reference solution belongs: a folder task's ``solution/`` folder."""
    source = Path(task.source) if task.source else None
    if source is not None and source.name == TASK_FILE:
        return str(source.parent / "solution")
    return f"task {task.id}'s solution"


async def check_task(
    suite: Suite,
    task: Task,
    *,
    backend: ExecutorBackend,
    repeat: int,
    hidden: tuple[Path, ...] = (),
    timeout_s: float | None = None,
) -> TaskSoundness:
    """Judge ``task`` as shipped once and solved ``repeat`` times; name what is wrong."""
    from garuda_evals.testing import self_test

    unpinned = task.model_copy(update={"expected_tests": None})
    try:
        shipped = await self_test(suite, task, solved=False, backend=backend, hidden=hidden)
    except FileFormatError as error:
        failed = Verdict(False, str(error), None)
        return TaskSoundness(task.id, failed, (), (f"{CANNOT_JUDGE}: {error}",))
    problems = []
    if shipped.passed:
        problems.append(f"{PASSES_UNSOLVED}: the check passes without the reference solution")
    if task.solution is None:
        problems.append(f"{NO_SOLUTION}: {_solution_place(task)} is missing or empty")
        return TaskSoundness(
            task=task.id,
            shipped=shipped,
            solved=(),
            problems=tuple(problems),
            pinned=task.expected_tests is not None,
        )
    solved: list[Verdict] = []
    for _ in range(repeat):
        solved.append(await self_test(suite, unpinned, solved=True, backend=backend, hidden=hidden))
    on_host = None
    if backend.kind == "os" and not any(verdict.passed for verdict in solved):
        on_host = await self_test(suite, unpinned, solved=True, backend=HostBackend())
    problems += _held_out_problems(task, shipped, tuple(solved))
    problems += _solved_problems(tuple(solved), on_host)
    passing = [verdict for verdict in solved if verdict.passed]
    ids = tuple(sorted(passing[0].passed_tests)) if passing else ()
    stale = stale_pins(task.expected_tests, ids) if passing else None
    if stale:
        problems.append(stale)
    return TaskSoundness(
        task=task.id,
        shipped=shipped,
        solved=tuple(solved),
        problems=tuple(problems),
        passed_tests=ids,
        pinned=task.expected_tests is not None,
        held_out=len(solved[0].held_out) if solved else 0,
        canaries=len(solved[0].held_out_canaries) if solved else 0,
    )


async def check_suite(
    suite: Suite,
    *,
    backend: ExecutorBackend,
    repeat: int = 3,
    parallel: int = 2,
    task_ids: tuple[str, ...] = (),
    hidden: tuple[Path, ...] = (),
    timeout_s: float | None = None,
    on_task: Callable[[TaskSoundness], None] | None = None,
) -> SuiteSoundness:
    """Check every task (or those in ``task_ids``), ``parallel`` at a time."""
    tasks = [task for task in suite.tasks() if not task_ids or task.id in task_ids]
    limiter = anyio.CapacityLimiter(parallel)
    found: dict[str, TaskSoundness] = {}

    async def one(task: Task) -> None:
        async with limiter:
            result = await check_task(
                suite, task, backend=backend, repeat=repeat, hidden=hidden, timeout_s=timeout_s
            )
        found[task.id] = result
        if on_task is not None:
            on_task(result)

    async with anyio.create_task_group() as group:
        for task in tasks:
            group.start_soon(one, task)
    return SuiteSoundness(
        suite=suite.name,
        executor=backend.name,
        tasks=tuple(found[task.id] for task in tasks),
    )
