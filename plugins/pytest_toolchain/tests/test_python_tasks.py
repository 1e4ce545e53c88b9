"""Every python task's check fails as shipped and passes with its reference solution, and
the tests its solution makes pass are the ones pinned in expected-tests.json."""

from __future__ import annotations

import anyio

from garuda_evals.models.task import Task
from garuda_evals.runner.check import Verdict
from garuda_evals.suites.base import Suite
from garuda_evals.testing import self_test

REPIN = "run `.venv/bin/python -m garuda_evals.suites.pinning python`"


async def _verdicts(suite: Suite) -> dict[tuple[str, bool], Verdict]:
    verdicts: dict[tuple[str, bool], Verdict] = {}

    async def one(task: Task, solved: bool) -> None:
        verdicts[(task.id, solved)] = await self_test(suite, task, solved=solved)

    async with anyio.create_task_group() as group:
        for task in suite.tasks():
            for solved in (False, True):
                group.start_soon(one, task, solved)
    return verdicts


def test_each_check_fails_as_shipped_and_passes_when_solved(python_suite: Suite) -> None:
    verdicts = anyio.run(_verdicts, python_suite)
    problems = []
    for task in python_suite.tasks():
        shipped, solved = verdicts[(task.id, False)], verdicts[(task.id, True)]
        if shipped.passed:
            problems.append(f"{task.id}: passes as shipped")
        elif shipped.check is None or not shipped.reason.startswith("check exited"):
            problems.append(f"{task.id}: fails as shipped for another reason: {shipped.reason}")
        if not solved.passed:
            tail = solved.check.output_tail if solved.check else ""
            problems.append(f"{task.id}: fails when solved: {solved.reason}\n{tail}")
        elif not solved.check or not solved.check.tests_ran or solved.check.tests_ran < 5:
            problems.append(f"{task.id}: too few tests ran when solved: {solved.check}")
        if task.expected_tests is None or sorted(solved.passed_tests) != task.expected_tests:
            problems.append(f"{task.id}: pinned tests are stale: {REPIN}")
    assert not problems, "\n".join(problems)
