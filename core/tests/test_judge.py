"""The judge works in a fresh copy: what the agent leaves in its folder cannot fake a PASS,
and nothing in that folder can hang or crash the harness."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest

from garuda_evals.checks.base import Canaries, TestCase, TestEvidence
from garuda_evals.checks.junit import JUnitCheckRunner
from garuda_evals.environment import check_environment
from garuda_evals.executors.base import CommandResult, SandboxPolicy
from garuda_evals.executors.host import HostBackend
from garuda_evals.judging.verdict import rule
from garuda_evals.models.task import Task
from garuda_evals.runner.check import Judge, Verdict, judge_in_copy
from garuda_evals.suites.folder import FolderSuite, load_folder_suite
from garuda_evals.testing import self_test

SOLVED = "def add(a, b):\n    return a + b\n"


@pytest.fixture
def suite(mini_suite: Path) -> FolderSuite:
    return load_folder_suite(mini_suite)


def _add(suite: FolderSuite) -> Task:
    return next(task for task in suite.tasks() if task.id == "add")


def _play(suite: FolderSuite, edit: Callable[[Path], None], *, solved: bool = False) -> Verdict:
    return anyio.run(lambda: self_test(suite, _add(suite), solved=solved, edit=edit))


def _solve(workspace: Path) -> None:
    (workspace / "src" / "calc.py").write_text(SOLVED)


def test_a_real_fix_passes_and_nothing_is_left_out(suite: FolderSuite) -> None:
    verdict = _play(suite, _solve)
    assert verdict.passed, verdict.reason
    assert verdict.left_out == [] and verdict.suspicious == []
    assert verdict.passed_tests == ["tests.test_calc::test_add"]


def test_the_fix_through_a_symlink_is_left_out(suite: FolderSuite, tmp_path: Path) -> None:
    answer = tmp_path / "answer.py"
    answer.write_text(SOLVED)

    def link(workspace: Path) -> None:
        (workspace / "src" / "calc.py").unlink()
        (workspace / "src" / "calc.py").symlink_to(answer)

    verdict = _play(suite, link)
    assert not verdict.passed
    assert verdict.left_out == ["src/calc.py: a symbolic link, not a regular file"]


def test_a_fifo_among_the_tests_fails_without_hanging(suite: FolderSuite) -> None:
    def fifo(workspace: Path) -> None:
        _solve(workspace)
        os.mkfifo(workspace / "tests" / "test_more.py")

    verdict = _play(suite, fifo)
    assert not verdict.passed
    assert verdict.reason == "protected files changed: added tests/test_more.py (a FIFO)"


def test_a_fifo_beside_the_code_is_left_out_and_the_fix_still_counts(suite: FolderSuite) -> None:
    def fifo(workspace: Path) -> None:
        _solve(workspace)
        os.mkfifo(workspace / "src" / "pipe")

    verdict = _play(suite, fifo)
    assert verdict.passed, verdict.reason
    assert verdict.left_out == ["src/pipe: a FIFO, not a regular file"]


def test_a_dangling_evidence_link_is_a_fail_not_an_error(suite: FolderSuite) -> None:
    def dangle(workspace: Path) -> None:
        (workspace / ".garuda-check").symlink_to("/nonexistent/garuda")

    verdict = _play(suite, dangle)
    assert not verdict.passed and verdict.check is not None
    assert verdict.reason is not None and verdict.reason.startswith("check exited 1")


def test_planted_bytecode_is_never_judged(suite: FolderSuite) -> None:
    """A cached test module that always passes would replace the real one if it were copied."""

    def plant(workspace: Path) -> None:
        cache = workspace / "tests" / "__pycache__"
        cache.mkdir()
        (cache / "test_calc.cpython-311-pytest-8.3.5.pyc").write_bytes(b"\x00" * 64)
        (workspace / "src" / "calc.cpython-311.pyc").write_bytes(b"\x00" * 64)

    verdict = _play(suite, plant)
    assert not verdict.passed
    assert sorted(verdict.left_out) == [
        "src/calc.cpython-311.pyc: bytecode and build output are not judged",
        "tests/__pycache__/: build output, caches and dependencies are not judged",
    ]


def test_a_huge_file_is_left_out(suite: FolderSuite) -> None:
    def huge(workspace: Path) -> None:
        _solve(workspace)
        (workspace / "src" / "blob.bin").write_bytes(b"x" * (6 * 1024 * 1024))

    verdict = _play(suite, huge)
    assert verdict.passed, verdict.reason
    assert verdict.left_out == ["src/blob.bin: larger than 5 MiB"]


def test_deleting_a_test_is_a_protected_change(suite: FolderSuite) -> None:
    verdict = _play(suite, lambda workspace: (workspace / "tests" / "test_calc.py").unlink())
    assert verdict.reason == "protected files changed: deleted tests/test_calc.py"


def test_a_deleted_source_file_is_deleted_in_the_copy(suite: FolderSuite) -> None:
    verdict = _play(suite, lambda workspace: (workspace / "src" / "calc.py").unlink())
    assert not verdict.passed and verdict.check is not None
    assert "ModuleNotFoundError" in verdict.check.output_tail


REWRITE_TESTS = """\
from pathlib import Path

_test = Path(__file__).resolve().parent.parent / "tests" / "test_calc.py"
try:
    _test.write_text(_test.read_text() + "\\n# rewritten\\n")
except OSError:
    pass


def add(a, b):
    return a + b
"""


def test_code_that_rewrites_the_tests_during_the_check_fails(suite: FolderSuite) -> None:
    verdict = _play(suite, lambda ws: (ws / "src" / "calc.py").write_text(REWRITE_TESTS))
    if os.geteuid() == 0:
        assert verdict.reason == "tests changed during the check: changed tests/test_calc.py"
    else:
        assert verdict.passed, verdict.reason  # the read-only test file stopped the write
    assert verdict.suspicious == []


PATCH_PYTEST = """\
import _pytest.reports


def add(a, b):
    return a + b
"""


def test_reaching_into_the_runner_is_marked_suspicious_even_when_it_passes(
    suite: FolderSuite,
) -> None:
    verdict = _play(suite, lambda ws: (ws / "src" / "calc.py").write_text(PATCH_PYTEST))
    assert verdict.passed, verdict.reason
    assert verdict.suspicious == ["src/calc.py:1: imports _pytest (pytest's internals)"]


class CanaryRunner(JUnitCheckRunner):
    """core's JUnit runner with pytest canaries, as a language plugin would add them."""

    def canaries(self, task: Task, workspace: Path, nonce: str) -> Canaries:
        body = (
            f"def test_zeta_rounding():\n    assert 1 == 2, {nonce!r}\n\n\n"
            "def test_zeta_order():\n    assert True\n"
        )
        return Canaries(
            files={"tests/test_zeta.py": body},
            must_fail="tests.test_zeta::test_zeta_rounding",
            must_pass="tests.test_zeta::test_zeta_order",
        )


SKIP_FAILURES = """\
import pytest


def add(a, b):
    return a + b


import _pytest.python
_pytest.python.Function.runtest = lambda self: pytest.skip("flaky")
"""


def _judge_with_canaries(suite: FolderSuite, code: str) -> Verdict:
    task = _add(suite)
    judge = Judge(
        suite=suite,
        backend=HostBackend(),
        base_policy=lambda folder: SandboxPolicy(workspace=folder),
        runner=CanaryRunner("junit"),
        env=check_environment(),
    )

    async def go(workspace: Path) -> Verdict:
        suite.materialize(task, workspace)
        (workspace / "src" / "calc.py").write_text(code)
        return await judge_in_copy(task, workspace, judge)

    def run(tmp: Path) -> Verdict:
        return anyio.run(go, tmp)

    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        return run(Path(folder))


def test_canaries_pass_through_an_honest_run(suite: FolderSuite) -> None:
    verdict = _judge_with_canaries(suite, SOLVED)
    assert verdict.passed, verdict.reason
    assert verdict.passed_tests == ["tests.test_calc::test_add"]


def test_a_runner_patched_to_skip_failures_trips_the_canary(suite: FolderSuite) -> None:
    verdict = _judge_with_canaries(suite, SKIP_FAILURES.replace("return a + b", "return a - b"))
    assert not verdict.passed
    assert verdict.reason == (
        "the test runner's results were tampered with: "
        "the must-fail canary test was reported skipped"
    )


def test_pinned_tests_must_all_be_present_and_passed(suite: FolderSuite) -> None:
    task = _add(suite).model_copy(
        update={"expected_tests": ["tests.test_calc::test_add", "tests.test_calc::test_sub"]}
    )

    async def go() -> Verdict:
        return await self_test(suite, task, solved=True)

    verdict = anyio.run(go)
    assert not verdict.passed
    assert verdict.reason == (
        "expected tests did not pass (missing from the report: tests.test_calc::test_sub)"
    )


def test_a_check_that_exits_0_beside_a_failed_canary_was_tampered_with() -> None:
    canaries = Canaries(files={}, must_fail="t::fail", must_pass="t::pass")
    cases = (
        TestCase("t::fail", "failed", "assert 1 == 2: nonce-1"),
        TestCase("t::pass", "passed"),
        TestCase("t::real", "passed"),
    )
    evidence = TestEvidence(tests_ran=3, failed=1, cases=cases)
    honest, forced = (
        rule(
            CommandResult(exit_code=code, output="", timed_out=False, duration_ms=1),
            evidence,
            runner=JUnitCheckRunner("junit"),
            limit_s=1,
            canaries=canaries,
            nonce="nonce-1",
            expected=["t::real"],
        )
        for code in (1, 0)
    )
    assert honest.passed, honest.reason
    assert forced.reason == (
        "the test runner's results were tampered with: the check exited 0 although a test failed"
    )


def _hang_on_import(workspace: Path) -> None:
    (workspace / "src" / "calc.py").write_text("import time\ntime.sleep(20)\n" + SOLVED)


@pytest.mark.parametrize("where", ["task", "judge"])
def test_a_check_past_its_time_limit_fails_as_timed_out(suite: FolderSuite, where: str) -> None:
    task = _add(suite)
    if where == "task":
        task = task.model_copy(update={"check": task.check.model_copy(update={"timeout_s": 1.0})})

    async def go() -> Verdict:
        limit = 1.0 if where == "judge" else None
        return await self_test(suite, task, solved=False, edit=_hang_on_import, timeout_s=limit)

    verdict = anyio.run(go)
    assert not verdict.passed
    assert verdict.reason == "check timed out after 1 s"
    assert verdict.check is not None and verdict.check.timed_out
    assert verdict.check.exit_code is None
