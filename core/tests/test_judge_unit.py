"""The judge's own steps, each on a real folder with a real (shell) check that writes JUnit
XML: cheap enough to run against every mutant of ``judging/judge.py``.

The check script stands in for a test runner: it reads the agent's answer, sources the
agent's ``src/hook.sh`` (code under test runs during the check) and reports one test,
plus the canaries it is given.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest

from garuda_evals.checks.base import Canaries, CheckPlan, HeldOutRun, TestEvidence
from garuda_evals.checks.gotest import GoTestCheckRunner
from garuda_evals.checks.junit import JUnitCheckRunner
from garuda_evals.environment import check_environment
from garuda_evals.executors.base import CommandResult, Executor, SandboxPolicy
from garuda_evals.executors.host import HostBackend, HostExecutor
from garuda_evals.judging.judge import (
    Judge,
    Verdict,
    fill_canaries,
    judge_in_copy,
    make_read_only,
    strict,
    write_canaries,
)
from garuda_evals.models.task import HeldOut, Task
from garuda_evals.removal import remove_tree
from garuda_evals.suites.folder import FolderSuite, load_folder_suite

NOBODY = 65534

CHECK = r"""report="$1"; shift
[ -f src/hook.sh ] && . src/hook.sh
answer=$(cat src/answer.txt 2>/dev/null)
{
  echo '<testsuites><testsuite>'
  if [ "$answer" = 42 ]; then
    echo '<testcase classname="t" name="answer"/>'
  else
    echo '<testcase classname="t" name="answer"><failure message="wrong answer"/></testcase>'
  fi
  for canary in "$@"; do
    read -r outcome message < "$canary"
    if [ "$outcome" = fail ]; then
      failed=1
      echo "<testcase classname=\"c\" name=\"must_fail\"><failure message=\"$message\"/></testcase>"
    else
      echo '<testcase classname="c" name="must_pass"/>'
    fi
  done
  echo '</testsuite></testsuites>'
} > "$report"
echo "answer was $answer"
[ "$answer" = 42 ] && [ -z "$failed" ]
"""


@pytest.fixture
def suite(answer_suite: Callable[[str, str], Path]) -> FolderSuite:
    """A one-task suite whose check is ``tests/check.sh``; judge folders go under tmp_path."""
    return load_folder_suite(answer_suite("bash tests/check.sh {junit} {canaries}", CHECK))


def _task(suite: FolderSuite) -> Task:
    return next(iter(suite.tasks()))


class CanaryRunner(JUnitCheckRunner):
    """JUnit runner with one must-fail and one must-pass canary, given as arguments."""

    def canaries(self, task: Task, workspace: Path, nonce: str) -> Canaries:
        return Canaries(
            files={"tests/canary/fail.txt": f"fail {nonce}\n", "tests/canary/pass.txt": "pass\n"},
            must_fail="c::must_fail",
            must_pass="c::must_pass",
            args=("tests/canary/fail.txt", "tests/canary/pass.txt"),
        )


class RefusingRunner(JUnitCheckRunner):
    """Refuses every changed file, one line each."""

    def refusals(self, task: Task, workspace: Path, changed: list[str]) -> list[str]:  # type: ignore[override]
        return [f"{path} is refused" for path in changed]


def _judge(
    suite: FolderSuite,
    edit: Callable[[Path], None],
    *,
    runner: JUnitCheckRunner | None = None,
    task: Task | None = None,
    timeout_s: float | None = None,
) -> Verdict:
    task = task or _task(suite)
    judge = Judge(
        suite=suite,
        backend=HostBackend(),
        base_policy=lambda folder: SandboxPolicy(workspace=folder),
        runner=runner or JUnitCheckRunner("junit"),
        env=check_environment(),
        timeout_s=timeout_s,
    )

    async def go() -> Verdict:
        workspace = Path(tempfile.mkdtemp(prefix="agent-"))
        suite.materialize(task, workspace)
        edit(workspace)
        return await judge_in_copy(task, workspace, judge)

    return anyio.run(go)


def _answer(text: str) -> Callable[[Path], None]:
    return lambda workspace: (workspace / "src" / "answer.txt").write_text(text)


def _hook(script: str, answer: str = "42\n") -> Callable[[Path], None]:
    def edit(workspace: Path) -> None:
        (workspace / "src" / "answer.txt").write_text(answer)
        (workspace / "src" / "hook.sh").write_text(script)

    return edit


def _judge_folders() -> list[str]:
    return [path.name for path in Path(tempfile.gettempdir()).glob("garuda-judge-*")]


def test_a_right_answer_passes_and_the_outcome_is_recorded(suite: FolderSuite) -> None:
    verdict = _judge(suite, _answer("42\n"))
    assert verdict.passed and verdict.reason is None
    assert verdict.passed_tests == ["t::answer"]
    assert verdict.protected_changes == [] and verdict.left_out == [] and verdict.suspicious == []
    check = verdict.check
    assert check is not None
    assert check.command.startswith("bash tests/check.sh ") and check.command.endswith(".xml ")
    assert "/.garuda-check/" in check.command
    assert (check.exit_code, check.timed_out, check.tests_ran, check.tests_failed) == (
        0,
        False,
        1,
        0,
    )
    assert check.output_tail == "answer was 42\n"
    assert check.duration_ms >= 0
    assert _judge_folders() == []


def test_a_wrong_answer_fails_on_the_check(suite: FolderSuite) -> None:
    verdict = _judge(suite, lambda workspace: None)
    assert not verdict.passed
    assert verdict.reason == "check exited 1: 1 failed: t::answer"
    assert verdict.passed_tests == []
    assert verdict.check is not None
    assert (verdict.check.exit_code, verdict.check.tests_ran, verdict.check.tests_failed) == (
        1,
        1,
        1,
    )
    assert _judge_folders() == []


def test_the_output_tail_keeps_the_last_2000_characters(suite: FolderSuite) -> None:
    verdict = _judge(suite, _hook("printf 'a%.0s' $(seq 3000); printf 'b%.0s' $(seq 1985)\n"))
    assert verdict.check is not None
    assert verdict.check.output_tail == "a" + "b" * 1985 + "answer was 42\n"


class UnreadableReportRunner(JUnitCheckRunner):
    """A runner whose reading of the report runs out of stack (code under test wrote it)."""

    def evidence(self, plan: CheckPlan, workspace: Path, result: CommandResult) -> TestEvidence:
        raise RecursionError("maximum recursion depth exceeded")


def test_a_report_the_runner_cannot_read_is_a_fail_not_an_error(suite: FolderSuite) -> None:
    verdict = _judge(suite, _answer("42\n"), runner=UnreadableReportRunner("junit"))
    assert not verdict.passed
    assert verdict.reason == (
        "check exited 0 but no evidence that tests ran (the check's report could not be read: "
        "RecursionError: maximum recursion depth exceeded)"
    ), verdict.reason
    assert _judge_folders() == []


class LongErrorRunner(JUnitCheckRunner):
    """A runner whose reading of the report fails with a very long message."""

    def evidence(self, plan: CheckPlan, workspace: Path, result: CommandResult) -> TestEvidence:
        raise ValueError("x" * 1000)


def test_why_a_report_could_not_be_read_is_cut_at_500_characters(suite: FolderSuite) -> None:
    verdict = _judge(suite, _answer("42\n"), runner=LongErrorRunner("junit"))
    assert not verdict.passed and verdict.check is not None
    prefix = "the check's report could not be read: ValueError: "
    assert verdict.check.evidence == prefix + "x" * (500 - len(prefix))


def test_a_changed_test_fails_before_the_check_and_is_not_carried(suite: FolderSuite) -> None:
    def edit(workspace: Path) -> None:
        (workspace / "src" / "answer.txt").write_text("42\n")
        (workspace / "tests" / "check.sh").write_text("exit 0\n")

    verdict = _judge(suite, edit)
    assert not verdict.passed and verdict.check is None
    assert verdict.reason == "protected files changed: changed tests/check.sh"
    assert verdict.protected_changes == ["changed tests/check.sh"]


def test_left_out_and_suspicious_files_are_reported_with_a_protected_change(
    suite: FolderSuite,
) -> None:
    def edit(workspace: Path) -> None:
        os.mkfifo(workspace / "src" / "pipe")
        (workspace / "src" / "calc.py").write_text("import _pytest\n")
        (workspace / "tests" / "new.sh").write_text("")

    verdict = _judge(suite, edit)
    assert verdict.reason == "protected files changed: added tests/new.sh"
    assert verdict.left_out == ["src/pipe: a FIFO, not a regular file"]
    assert verdict.suspicious == ["src/calc.py:1: imports _pytest (pytest's internals)"]


def test_left_out_and_suspicious_files_are_reported_after_the_check(suite: FolderSuite) -> None:
    def edit(workspace: Path) -> None:
        (workspace / "src" / "answer.txt").write_text("42\n")
        os.mkfifo(workspace / "src" / "pipe")
        (workspace / "src" / "calc.py").write_text("import _pytest\n")

    verdict = _judge(suite, edit)
    assert verdict.passed, verdict.reason
    assert verdict.left_out == ["src/pipe: a FIFO, not a regular file"]
    assert verdict.suspicious == ["src/calc.py:1: imports _pytest (pytest's internals)"]


def test_refusals_fail_before_the_check_naming_the_first_three(suite: FolderSuite) -> None:
    def edit(workspace: Path) -> None:
        for name in ("a", "b", "c", "d"):
            (workspace / "src" / name).write_text(name)

    verdict = _judge(suite, edit, runner=RefusingRunner("junit"))
    assert not verdict.passed and verdict.check is None
    assert verdict.reason == "refused: src/a is refused; src/b is refused; src/c is refused"


def test_nothing_changed_is_not_refused(suite: FolderSuite) -> None:
    verdict = _judge(suite, lambda workspace: None, runner=RefusingRunner("junit"))
    assert verdict.check is not None


def test_tests_changed_during_the_check_fail_a_passing_check(suite: FolderSuite) -> None:
    verdict = _judge(suite, _hook("chmod u+w tests/check.sh; echo '# more' >> tests/check.sh\n"))
    assert not verdict.passed
    assert verdict.reason == "tests changed during the check: changed tests/check.sh"


def test_tests_deleted_during_the_check_fail(suite: FolderSuite) -> None:
    verdict = _judge(suite, _hook("rm -f tests/check.sh\n"))
    assert not verdict.passed
    assert verdict.reason == "tests changed during the check: deleted tests/check.sh"


def test_a_file_the_check_adds_among_the_tests_is_not_a_change(suite: FolderSuite) -> None:
    verdict = _judge(suite, _hook("echo cache > tests/cache.txt\n"))
    assert verdict.passed, verdict.reason


def test_protected_files_are_read_only_during_the_check(suite: FolderSuite) -> None:
    verdict = _judge(suite, _hook("stat -c %a tests/check.sh src/answer.txt\n"))
    assert verdict.check is not None
    assert verdict.check.output_tail == "444\n644\nanswer was 42\n"


def test_canaries_are_written_read_only_and_left_out_of_the_passed_tests(
    suite: FolderSuite,
) -> None:
    verdict = _judge(
        suite,
        _hook("stat -c %a tests/canary/fail.txt tests/canary/pass.txt\n"),
        runner=CanaryRunner("junit"),
    )
    assert verdict.passed, verdict.reason
    assert verdict.passed_tests == ["t::answer"]
    assert verdict.check is not None
    assert verdict.check.output_tail.startswith("444\n444\n")
    assert (verdict.check.tests_ran, verdict.check.tests_failed) == (1, 0)
    assert verdict.check.evidence == (
        "1 ran, 0 failed, 0 skipped; canaries (not counted): must-fail failed, must-pass passed"
    )


def test_a_must_fail_canary_without_the_nonce_trips(suite: FolderSuite) -> None:
    script = "chmod u+w tests/canary/fail.txt; echo 'fail forged' > tests/canary/fail.txt\n"
    verdict = _judge(suite, _hook(script), runner=CanaryRunner("junit"))
    assert not verdict.passed
    assert verdict.reason is not None and "tampered" in verdict.reason


def test_the_check_limit_comes_from_the_task_or_the_judge(suite: FolderSuite) -> None:
    task = _task(suite)
    quick = task.model_copy(update={"check": task.check.model_copy(update={"timeout_s": 1.0})})
    hang = _hook("sleep 30\n")
    for verdict in (_judge(suite, hang, task=quick), _judge(suite, hang, timeout_s=1.0)):
        assert not verdict.passed
        assert verdict.reason == "check timed out after 1 s"
        assert verdict.check is not None and verdict.check.timed_out
    generous = _judge(suite, _hook("sleep 2\n"), task=quick, timeout_s=20.0)
    assert generous.passed, generous.reason


def test_the_judge_folder_is_removed_even_when_left_read_only(suite: FolderSuite) -> None:
    verdict = _judge(
        suite, _hook("mkdir -p src/ro/deep; touch src/ro/deep/f; chmod 500 src/ro src/ro/deep\n")
    )
    assert verdict.passed, verdict.reason
    assert _judge_folders() == []


def test_fill_canaries_quotes_the_arguments() -> None:
    canaries = Canaries(files={}, must_fail="a", must_pass="b", args=("x y", "z"))
    assert fill_canaries("run {canaries} --end", canaries) == "run 'x y' z --end"
    assert fill_canaries("run {canaries} --end", None) == "run  --end"


def test_canaries_are_written_in_new_folders(tmp_path: Path) -> None:
    canaries = Canaries(files={"a/b/c.txt": "hi", "d.txt": "there"}, must_fail="", must_pass="")
    written = write_canaries(tmp_path, canaries.files)
    assert written == [tmp_path / "a/b/c.txt", tmp_path / "d.txt"]
    assert (tmp_path / "a/b/c.txt").read_text() == "hi"


@pytest.mark.parametrize("relative", ["/etc/x", "../x", "a/../../x"])
def test_a_canary_outside_the_workspace_is_refused(tmp_path: Path, relative: str) -> None:
    canaries = Canaries(files={relative: "x"}, must_fail="", must_pass="")
    with pytest.raises(ValueError, match="leaves the workspace"):
        write_canaries(tmp_path / "ws", canaries.files)


def test_a_canary_through_a_link_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "linked").symlink_to(outside)
    (workspace / "file.txt").symlink_to(outside / "target.txt")
    for relative in ("linked/c.txt", "file.txt"):
        canaries = Canaries(files={relative: "x"}, must_fail="", must_pass="")
        with pytest.raises(ValueError, match="goes through a link"):
            write_canaries(workspace, canaries.files)
    assert list(outside.iterdir()) == []


def test_make_read_only_clears_write_bits_of_regular_files_only(tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.write_text("t")
    target.chmod(0o666)
    (tmp_path / "file").write_text("f")
    (tmp_path / "file").chmod(0o755)
    (tmp_path / "link").symlink_to(target)
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder").chmod(0o777)
    make_read_only([tmp_path / "file", tmp_path / "link", tmp_path / "folder"])
    assert stat.S_IMODE((tmp_path / "file").stat().st_mode) == 0o555
    assert stat.S_IMODE(target.stat().st_mode) == 0o666
    assert stat.S_IMODE((tmp_path / "folder").stat().st_mode) == 0o777


class ClosingExecutor(HostExecutor):
    """The host executor whose close waits on something, as a sandbox's does (its proxy)."""

    async def aclose(self) -> None:
        """Yield to the event loop once, where a cancellation lands."""
        await anyio.sleep(0)


class ClosingBackend(HostBackend):
    """Makes closing executors."""

    def create(self, policy: SandboxPolicy) -> Executor:
        """A host executor with an awaiting close."""
        return ClosingExecutor(policy)


def _judge_then_cancel(suite: FolderSuite, judge: Judge, started: Path) -> None:
    """Judge an answer whose code under test touches ``started`` and hangs; cancel the judge
    once ``started`` exists (Ctrl-C during the check)."""
    task = _task(suite)

    async def go() -> None:
        workspace = Path(tempfile.mkdtemp(prefix="agent-"))
        suite.materialize(task, workspace)
        _hook(f"touch {started}; sleep 1000\n")(workspace)
        with anyio.CancelScope() as scope:
            async with anyio.create_task_group() as group:

                async def cancel_when_started() -> None:
                    while not started.exists():
                        await anyio.sleep(0.01)
                    scope.cancel()

                group.start_soon(cancel_when_started)
                await judge_in_copy(task, workspace, judge)
        assert scope.cancelled_caught

    anyio.run(go)


def test_a_cancelled_check_still_cleans_up_its_folder(suite: FolderSuite, tmp_path: Path) -> None:
    """Ctrl-C during the check: the judge's copy is removed all the same."""
    judge = Judge(
        suite=suite,
        backend=ClosingBackend(),
        base_policy=lambda folder: SandboxPolicy(workspace=folder),
        runner=JUnitCheckRunner("junit"),
        env=check_environment(),
    )
    _judge_then_cancel(suite, judge, tmp_path / "started")
    assert _judge_folders() == []


def test_a_folder_left_read_only_is_removed_by_its_owner_too(tmp_path: Path) -> None:
    """Root removes anything; an ordinary owner of a read-only folder must make it writable
    first: checked in a forked child that became nobody."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.chdir(shared)
            if os.geteuid() == 0:
                os.setgroups([])
                os.setgid(NOBODY)
                os.setuid(NOBODY)
            folder = Path("copy")
            (folder / "ro" / "deep").mkdir(parents=True)
            (folder / "ro" / "deep" / "f").write_text("f")
            (folder / "ro" / "deep").chmod(0o500)
            (folder / "ro").chmod(0o500)
            remove_tree(folder)
            code = 0 if not os.path.lexists(folder) else 3
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


class BrokenPlanRunner(GoTestCheckRunner):
    """Go's runner whose plan fails after the canaries are planted."""

    def plan(self, command: str, workspace: Path) -> CheckPlan:
        raise RuntimeError("plan failed")


@pytest.mark.parametrize("failure", ["plan raises", "Ctrl-C during the check"])
def test_a_run_stopped_between_planting_and_reading_leaves_no_canaries_kept(
    answer_suite: Callable[[str, str], Path], tmp_path: Path, failure: str
) -> None:
    """Go's runner remembers its canaries until ``evidence``; a run that never gets there
    must not leave them behind (one entry per failed run would pile up)."""
    root = answer_suite("bash tests/check.sh {canaries}", CHECK)
    (root / "t" / "files" / "go.mod").write_text("module example.com/m\n\ngo 1.21\n")
    (root / "t" / "files" / "tests" / "a_test.go").write_text("package tests\n")
    suite = load_folder_suite(root)
    runner = BrokenPlanRunner() if failure == "plan raises" else GoTestCheckRunner()
    judge = Judge(
        suite=suite,
        backend=HostBackend(),
        base_policy=lambda folder: SandboxPolicy(workspace=folder),
        runner=runner,
        env=check_environment(),
    )
    planted: list[Path] = []
    canaries = runner.canaries

    def spy(task: Task, workspace: Path, nonce: str) -> Canaries | None:
        planted.append(workspace)
        return canaries(task, workspace, nonce)

    runner.canaries = spy  # type: ignore[method-assign]
    if failure == "plan raises":
        with pytest.raises(ExceptionGroup) as raised:
            _judge_then_cancel(suite, judge, tmp_path / "started")
        assert raised.group_contains(RuntimeError, match="plan failed")
    else:
        _judge_then_cancel(suite, judge, tmp_path / "started")
    assert len(planted) == 1
    assert runner._planted == {}


def test_strict_fails_a_pass_the_lint_marked_and_nothing_else() -> None:
    marked = Verdict(True, None, None, suspicious=["src/a.py:3: imports _pytest", "b"])
    assert strict(marked) == Verdict(
        False,
        "suspicious under --strict: src/a.py:3: imports _pytest",
        None,
        suspicious=["src/a.py:3: imports _pytest", "b"],
    )
    clean = Verdict(True, None, None)
    failed = Verdict(False, "check exited 1", None, suspicious=["x"])
    assert strict(clean) is clean and strict(failed) is failed


HELD_CHECK = r"""report="$1"; shift
[ -f src/hook.sh ] && . src/hook.sh
answer=$(cat src/answer.txt 2>/dev/null)
{
  echo '<testsuites><testsuite><testcase classname="t" name="answer"/>'
  for file in "$@"; do
    read -r name expected < "$file"
    if [ "$answer" = "$expected" ]; then
      echo "<testcase classname=\"h\" name=\"$name\"/>"
    else
      failed=1
      echo "<testcase classname=\"h\" name=\"$name\"><failure message=\"want $expected\"/></testcase>"
    fi
  done
  echo '</testsuite></testsuites>'
} > "$report"
[ -z "$failed" ]
"""
HELD_OUT = HeldOut(tests={"tests/a.txt": "42"}, canaries={"tests/b.txt": "41", "tests/c.txt": "43"})


class HeldOutRunner(JUnitCheckRunner):
    """Writes each held-out source as ``held/<n>.txt`` holding ``<nonce name> <expected>``."""

    def held_out(self, task: Task, workspace: Path, nonce: str) -> HeldOutRun:
        assert task.held_out is not None
        files: dict[str, str] = {}
        ids: dict[str, dict[str, str]] = {"tests": {}, "canaries": {}}
        sources = [("tests", task.held_out.tests), ("canaries", task.held_out.canaries)]
        for kind, given in sources:
            for path, expected in given.items():
                name = f"{nonce}{len(files)}"
                files[f"held/{len(files)}.txt"] = f"{name} {expected}\n"
                ids[kind][f"h::{name}"] = path
        return HeldOutRun(
            files=files, must_pass=ids["tests"], must_fail=ids["canaries"], args=tuple(files)
        )


@pytest.fixture
def held_suite(answer_suite: Callable[[str, str], Path]) -> FolderSuite:
    """A one-task suite whose check passes its visible test whatever the answer, and judges
    the held-out files it is given: ``answer == expected``."""
    return load_folder_suite(answer_suite("bash tests/check.sh {junit} {canaries}", HELD_CHECK))


def _held_task(suite: FolderSuite, held_out: HeldOut = HELD_OUT) -> Task:
    return _task(suite).model_copy(update={"held_out": held_out})


def test_held_out_tests_decide_and_are_written_read_only_out_of_the_passed_tests(
    held_suite: FolderSuite,
) -> None:
    task, runner = _held_task(held_suite), HeldOutRunner("junit")
    modes = _hook("stat -c %a held/0.txt held/1.txt held/2.txt\n")
    solved = _judge(held_suite, modes, runner=runner, task=task)
    assert solved.passed, solved.reason
    assert solved.passed_tests == ["t::answer"]
    assert solved.held_out == {"tests/a.txt": "passed"}
    assert solved.held_out_canaries == {"tests/b.txt": "failed", "tests/c.txt": "failed"}
    assert solved.check is not None and solved.check.output_tail.startswith("444\n444\n444\n")
    unsolved = _judge(held_suite, _answer("41\n"), runner=runner, task=task)
    assert unsolved.reason == "held-out tests did not pass (1 of 1): tests/a.txt (failed)"
    assert unsolved.held_out_canaries == {"tests/b.txt": "passed", "tests/c.txt": "failed"}
    assert _judge_folders() == []


def test_a_task_with_held_out_tests_needs_a_runner_that_can_run_them(
    held_suite: FolderSuite,
) -> None:
    for held_out in (
        HELD_OUT,
        HeldOut(tests={"tests/a.txt": "42"}),
        HeldOut(canaries=HELD_OUT.canaries),
    ):
        with pytest.raises(ValueError, match="check runner 'junit' cannot run held-out tests"):
            _judge(held_suite, _answer("42\n"), task=_held_task(held_suite, held_out))
    empty = _judge(held_suite, _answer("42\n"), task=_held_task(held_suite, HeldOut()))
    assert empty.passed and empty.held_out == {} and empty.held_out_canaries == {}


def test_a_verdict_without_a_check_has_no_held_out_outcomes() -> None:
    assert Verdict(False, "refused", None).held_out == {}
    assert Verdict(False, "refused", None).held_out_canaries == {}


class OverwritingRunner(JUnitCheckRunner):
    """Writes the task's held-out tests where their paths say, over the shipped files (an
    imported benchmark's test patch changes tests the workspace ships)."""

    def held_out(self, task: Task, workspace: Path, nonce: str) -> HeldOutRun:
        assert task.held_out is not None
        return HeldOutRun(files=dict(task.held_out.tests), must_pass={}, must_fail={})


def _overwriting_task(suite: FolderSuite) -> Task:
    patched = CHECK + "# the test patch's version\n"
    return _task(suite).model_copy(update={"held_out": HeldOut(tests={"tests/check.sh": patched})})


def test_a_held_out_test_written_over_a_shipped_one_is_the_reference_after_the_check(
    suite: FolderSuite,
) -> None:
    task, runner = _overwriting_task(suite), OverwritingRunner("junit")
    shown = _hook("tail -n 1 tests/check.sh; stat -c %a tests/check.sh\n")
    solved = _judge(suite, shown, runner=runner, task=task)
    assert solved.passed, solved.reason
    assert solved.check is not None
    assert solved.check.output_tail.startswith("# the test patch's version\n444\n")
    unsolved = _judge(suite, _answer("41\n"), runner=runner, task=task)
    assert not unsolved.passed and unsolved.reason is not None
    assert unsolved.reason.startswith("check exited 1: 1 failed: t::answer")


def test_a_held_out_test_changed_during_the_check_still_fails(suite: FolderSuite) -> None:
    task, runner = _overwriting_task(suite), OverwritingRunner("junit")
    rewrite = _hook("chmod u+w tests/check.sh; echo '# more' >> tests/check.sh\n")
    verdict = _judge(suite, rewrite, runner=runner, task=task)
    assert not verdict.passed
    assert verdict.reason == "tests changed during the check: changed tests/check.sh"


def test_the_agents_change_to_a_test_the_judge_overwrites_fails_before_the_check(
    suite: FolderSuite,
) -> None:
    task, runner = _overwriting_task(suite), OverwritingRunner("junit")

    def edit(workspace: Path) -> None:
        (workspace / "src" / "answer.txt").write_text("42\n")
        (workspace / "tests" / "check.sh").write_text(CHECK + "# the agent's version\n")

    verdict = _judge(suite, edit, runner=runner, task=task)
    assert not verdict.passed
    assert verdict.reason == "protected files changed: changed tests/check.sh"
