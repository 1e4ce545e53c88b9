"""One job through ``run_job``: the agent's turn, the harness's limit, the judge, the row.

A one-task suite whose check is a shell script that writes JUnit XML, and agents defined
here (a plugin's agent is any ``Agent``): cheap enough to run against every mutant of
``runner/task_run.py``.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import pytest

from garuda_evals.agents.base import (
    BUDGET_STOP,
    NOT_REPORTED,
    Agent,
    AgentOutcome,
    AgentTurn,
    Progress,
)
from garuda_evals.checks.junit import JUnitCheckRunner
from garuda_evals.executors.base import (
    Availability,
    CommandResult,
    Executor,
    ExecutorBackend,
    ExecutorInfo,
    SandboxPolicy,
)
from garuda_evals.executors.host import HostExecutor
from garuda_evals.models.result import Status, TaskResult
from garuda_evals.models.settings import RunSettings
from garuda_evals.models.task import Task
from garuda_evals.models.usage import Usage
from garuda_evals.runner.selection import Selected
from garuda_evals.runner.task_run import Job, TaskContext, interrupted_row, run_job
from garuda_evals.suites.folder import FolderSuite, load_folder_suite

CHECK = r"""report="$1"
answer=$(cat src/answer.txt 2>/dev/null)
if [ "$answer" = 42 ]; then
  echo '<testsuite><testcase classname="t" name="answer"/></testsuite>' > "$report"
else
  echo '<testsuite><testcase classname="t" name="answer"><failure message="no"/></testcase></testsuite>' > "$report"
fi
echo "answer was $answer"
[ "$answer" = 42 ]
"""

USAGE = Usage(input_tokens=10, output_tokens=5, cost_usd=0.5)


class EnvSuite(FolderSuite):
    """The folder suite with one variable for the agent, and a record of released folders."""

    released: list[Path]

    def environment(self, task: Task, workspace: Path) -> dict[str, str]:
        """One variable naming the workspace."""
        return {"TASK_WORKSPACE": str(workspace)}

    def release(self, task: Task, workspace: Path) -> None:
        """Record the folder."""
        self.released.append(workspace)


@dataclass
class Recorded:
    """What the recording backend saw."""

    policies: list[SandboxPolicy] = field(default_factory=list)
    closed: list[int] = field(default_factory=list)


class RecordingExecutor(Executor):
    """The host executor, counting its commands and recording when it is closed."""

    def __init__(self, policy: SandboxPolicy, recorded: Recorded, number: int) -> None:
        self.host, self.recorded, self.number = HostExecutor(policy), recorded, number

    async def run(
        self,
        command: str,
        *,
        cwd: Path,
        env: Mapping[str, str],
        timeout_s: float,
        output_limit: int = 1 << 20,
        pass_fds: Sequence[int] = (),
    ) -> CommandResult:
        """Run on the host."""
        return await self.host.run(command, cwd=cwd, env=env, timeout_s=timeout_s)

    def info(self) -> ExecutorInfo:
        """The host's."""
        return self.host.info()

    async def aclose(self) -> None:
        """Record the close."""
        self.recorded.closed.append(self.number)


class RecordingBackend(ExecutorBackend):
    """Makes recording host executors, numbered in order."""

    name = "recording"
    kind = "host"
    description = "host, recorded"

    def __init__(self) -> None:
        self.recorded = Recorded()

    def availability(self) -> Availability:
        """Always."""
        return Availability(ok=True)

    def create(self, policy: SandboxPolicy) -> Executor:
        """A recording executor."""
        self.recorded.policies.append(policy)
        return RecordingExecutor(policy, self.recorded, len(self.recorded.policies))


class OsRecordingBackend(RecordingBackend):
    """The recording backend, standing for an OS sandbox (its executors run on the host)."""

    kind = "os"


Play = Callable[[AgentTurn], Awaitable[AgentOutcome]]


class PlayedAgent(Agent):
    """Runs ``play`` as its turn; records the turn."""

    def __init__(self, play: Play, read_only: tuple[Path, ...] = ()) -> None:
        self.play, self.read_only, self.turns = play, read_only, list[AgentTurn]()

    async def run(self, turn: AgentTurn) -> AgentOutcome:
        """Play."""
        self.turns.append(turn)
        return await self.play(turn)

    def read_only_paths(self) -> tuple[Path, ...]:
        """The paths it was given."""
        return self.read_only


async def answer_42(turn: AgentTurn) -> AgentOutcome:
    """Fix the answer with a command, as an agent would."""
    await turn.executor.run(
        "echo 42 > src/answer.txt", cwd=turn.workspace, env=turn.env, timeout_s=30
    )
    return AgentOutcome(
        steps=3, usage=USAGE, stop_reason="done", notices=["a notice"], tool_calls={"bash": 1}
    )


async def do_nothing(turn: AgentTurn) -> AgentOutcome:
    """Change nothing."""
    return AgentOutcome(steps=None, usage=Usage(), stop_reason="done")


async def hang(turn: AgentTurn) -> AgentOutcome:
    """Count two steps, then ignore every limit."""
    turn.progress.steps, turn.progress.usage = 2, USAGE
    turn.progress.tool_calls["bash"] = 2
    turn.progress.usage_by_model["m"] = USAGE
    await anyio.sleep(60)
    raise AssertionError("not reached")


async def crash(turn: AgentTurn) -> AgentOutcome:
    """Count a step, then fail."""
    turn.progress.steps, turn.progress.usage = 1, USAGE
    raise RuntimeError("boom")


@dataclass
class Setup:
    """A suite, its task, and a place for transcripts."""

    suite: EnvSuite
    task: Task
    runs: Path


@pytest.fixture
def setup(tmp_path: Path, answer_suite: Callable[[str, str], Path]) -> Setup:
    root = answer_suite("bash tests/check.sh {junit}", CHECK)
    suite = EnvSuite(load_folder_suite(root).root)
    suite.released = []
    task = next(iter(suite.tasks()))
    return Setup(suite, task, tmp_path / "runs")


def _run(
    setup: Setup,
    agent: Agent,
    *,
    keep: bool = False,
    timeout_s: float = 600.0,
    store_change: bool = False,
    backend: RecordingBackend | None = None,
    progress: Progress | None = None,
    hidden: tuple[Path, ...] = (),
) -> tuple[TaskResult, list[tuple[str, str]]]:
    events: list[tuple[str, str]] = []
    job = Job(
        index=0,
        item=Selected(setup.suite, setup.task),
        repeat=2,
        transcript=setup.runs / "run" / "t-2.jsonl",
        change=setup.runs / "run" / "changes" / "t-2.diff" if store_change else None,
    )
    context = TaskContext(
        settings=RunSettings(suites=[str(setup.suite.root)], executor="host", keep=keep),
        agent=agent,
        backend=backend or RecordingBackend(),
        runners={"junit": JUnitCheckRunner("junit")},
        emit=lambda kind, _job, message: events.append((kind, message)),
        hidden=hidden,
        task_timeout_s=timeout_s,
    )
    row = anyio.run(lambda: run_job(job, context, progress))
    return row, events


def _leftovers() -> list[str]:
    return sorted(path.name for path in Path(tempfile.gettempdir()).iterdir())


def test_a_fixing_agent_passes_and_its_row_says_what_it_used(setup: Setup) -> None:
    agent = PlayedAgent(answer_42)
    progress = Progress()
    row, events = _run(setup, agent, progress=progress)
    assert row.status is Status.PASS, row.failure
    assert (row.task, row.suite, row.title, row.repeat) == ("t", "unit", "Answer", 2)
    assert row.failure is None and row.stop_reason == "done"
    assert (row.steps, row.usage, row.notices, row.tool_calls) == (
        3,
        USAGE,
        ["a notice"],
        {"bash": 1},
    )
    assert row.check is not None and row.check.exit_code == 0 and row.check.tests_ran == 1
    assert row.workspace is None and row.change is None
    assert row.duration_ms >= row.agent_duration_ms >= 0
    assert (progress.steps, progress.usage) == (3, USAGE)
    assert events == [("start", "Answer")]
    assert row.transcript == str(setup.runs / "run" / "t-2.jsonl")
    assert (setup.runs / "run" / "t-2.jsonl").read_text() == ""
    assert _leftovers() == []


def test_the_agents_turn_gets_the_task_its_folder_and_the_limit(setup: Setup) -> None:
    agent = PlayedAgent(answer_42)
    _run(setup, agent, timeout_s=123.0)
    (turn,) = agent.turns
    assert turn.task == setup.task and turn.prompt == "Answer 42."
    assert turn.timeout_s == 123.0
    assert turn.env["TASK_WORKSPACE"] == str(turn.workspace)
    assert "PATH" in turn.env
    assert turn.transcript == setup.runs / "run" / "t-2.jsonl"
    assert turn.workspace in setup.suite.released


def test_the_agents_executor_is_closed_before_the_judge_makes_its_own(setup: Setup) -> None:
    backend = RecordingBackend()
    extra = (Path("/opt/agent-state"),)
    _run(setup, PlayedAgent(answer_42, read_only=extra), backend=backend)
    agent_policy, judge_policy = backend.recorded.policies
    assert backend.recorded.closed[0] == 1
    assert backend.recorded.closed.count(1) >= 1 and 2 in backend.recorded.closed
    assert backend.recorded.closed.index(1) < backend.recorded.closed.index(2)
    assert agent_policy.read_only[-1] == extra[0]
    assert extra[0] not in judge_policy.read_only
    assert agent_policy.workspace != judge_policy.workspace


def test_no_read_only_paths_leave_the_suites_policy_as_it_is(setup: Setup) -> None:
    backend = RecordingBackend()
    _run(setup, PlayedAgent(answer_42), backend=backend)
    agent_policy = backend.recorded.policies[0]
    assert agent_policy == setup.suite.policy(
        setup.task,
        SandboxPolicy(
            workspace=agent_policy.workspace,
            hidden=(),
            env_allow=agent_policy.env_allow,
        ),
    )


def test_an_agent_path_that_would_show_a_hidden_folder_is_an_error_run(
    setup: Setup, tmp_path: Path
) -> None:
    """Under an OS sandbox, a read-only path inside the suite's folder or the project's git
    folder: no executor is made and the agent never runs; one inside the project elsewhere
    is shown."""
    project = tmp_path / "project"
    (project / ".git" / "hooks").mkdir(parents=True)
    (project / "tools").mkdir()
    solution = setup.suite.root / "t" / "task.toml"
    for path, inside in [(solution, setup.suite.root), (project / ".git" / "hooks", None)]:
        backend = OsRecordingBackend()
        agent = PlayedAgent(answer_42, read_only=(project / "tools", path))
        row, _ = _run(setup, agent, backend=backend, hidden=(project,))
        assert row.status is Status.ERR
        where = (
            f"{inside}, which the suite hides from the agent (its solutions)"
            if inside
            else f"{project / '.git'}, the project's history, which the agent must not read"
        )
        assert row.failure == (
            f"GarudaError: the agent's path {path} (named in --agent-command or --agent-mount) "
            f"lies inside {where}: keep the agent's files apart from it"
        )
        assert backend.recorded.policies == [] and agent.turns == []
    backend = OsRecordingBackend()
    row, _ = _run(
        setup, PlayedAgent(answer_42, read_only=(project / "tools",)), backend=backend,
        hidden=(project,),
    )  # fmt: skip
    assert row.status is Status.PASS, row.failure
    assert backend.recorded.policies[0].read_only[-1] == project / "tools"
    assert backend.recorded.policies[0].hidden[0] == project
    # On the host nothing is hidden, so nothing is refused.
    row, _ = _run(setup, PlayedAgent(answer_42, read_only=(solution,)), hidden=(project,))
    assert row.status is Status.PASS, row.failure


def test_an_agent_that_changes_nothing_fails_on_the_check(setup: Setup) -> None:
    row, _ = _run(setup, PlayedAgent(do_nothing))
    assert row.status is Status.FAIL
    assert row.failure == "check exited 1: 1 failed: t::answer"
    assert row.steps is None and row.tool_calls == {} and row.usage_by_model == {}


def test_a_protected_change_is_recorded_in_the_row(setup: Setup) -> None:
    async def cheat(turn: AgentTurn) -> AgentOutcome:
        (turn.workspace / "tests" / "check.sh").write_text("exit 0\n")
        (turn.workspace / "src" / "answer.txt").write_text("42\n")
        (turn.workspace / "src" / "pipe").symlink_to("/etc/hostname")
        (turn.workspace / "src" / "calc.py").write_text("import _pytest\n")
        return AgentOutcome(steps=1, usage=USAGE, stop_reason="done")

    row, _ = _run(setup, PlayedAgent(cheat))
    assert row.status is Status.FAIL
    assert row.protected_changes == ["changed tests/check.sh"]
    assert row.left_out == ["src/pipe: a symbolic link, not a regular file"]
    assert row.suspicious == ["src/calc.py:1: imports _pytest (pytest's internals)"]


def test_the_harness_ends_an_agent_that_ignores_the_task_limit(setup: Setup) -> None:
    progress = Progress()
    backend = RecordingBackend()
    row, _ = _run(setup, PlayedAgent(hang), timeout_s=1.0, progress=progress, backend=backend)
    assert backend.recorded.closed == [1]
    assert row.usage_by_model == {"m": USAGE} and row.notices == []
    assert row.status is Status.FAIL and row.stop_reason == "timeout"
    assert row.failure == "the agent ran past the 1 s task limit"
    assert (row.steps, row.usage, row.tool_calls) == (2, USAGE, {"bash": 2})
    assert row.check is None
    assert row.agent_duration_ms >= 1000
    assert _leftovers() == []


async def answer_then_block(turn: AgentTurn) -> AgentOutcome:
    """Fix the answer, then block past the limit in a thread (cancelling cannot stop it)."""
    (turn.workspace / "src" / "answer.txt").write_text("42\n")
    turn.progress.steps = 1
    await anyio.to_thread.run_sync(time.sleep, turn.timeout_s + 0.5)
    return AgentOutcome(steps=6, usage=USAGE, stop_reason="done", notices=["late"])


async def answer_then_swallow_the_cancel(turn: AgentTurn) -> AgentOutcome:
    """Fix the answer, then catch the limit's cancellation and return as if done."""
    (turn.workspace / "src" / "answer.txt").write_text("42\n")
    try:
        await anyio.sleep(60)
    except anyio.get_cancelled_exc_class():
        pass
    return AgentOutcome(steps=6, usage=USAGE, stop_reason="done")


@pytest.mark.parametrize("late", [answer_then_block, answer_then_swallow_the_cancel])
def test_an_agent_that_returns_past_the_limit_fails_unjudged_however_it_got_there(
    setup: Setup, late: Play
) -> None:
    backend = RecordingBackend()
    row, _ = _run(setup, PlayedAgent(late), timeout_s=1.0, store_change=True, backend=backend)
    assert row.status is Status.FAIL and row.stop_reason == "timeout"
    assert row.failure == "the agent ran past the 1 s task limit"
    assert row.check is None and len(backend.recorded.policies) == 1  # no judge
    assert (row.steps, row.usage) == (6, USAGE)
    assert row.agent_duration_ms >= 1000
    assert row.change == "changes/t-2.diff"
    assert "+42" in (setup.runs / "run" / "changes" / "t-2.diff").read_text()
    assert _leftovers() == []


def test_an_agent_that_raises_is_an_error_row_with_what_it_used(setup: Setup) -> None:
    row, _ = _run(setup, PlayedAgent(crash))
    assert row.status is Status.ERR and row.stop_reason == "error"
    assert row.failure == "RuntimeError: boom"
    assert (row.steps, row.usage) == (1, USAGE)
    assert (setup.runs / "run" / "t-2.jsonl").exists()
    assert _leftovers() == []


def test_an_error_after_the_turn_keeps_the_turns_own_counts(setup: Setup) -> None:
    async def then_break(turn: AgentTurn) -> AgentOutcome:
        turn.progress.steps = 9
        (turn.workspace / "src" / "answer.txt").write_text("42\n")
        return AgentOutcome(steps=4, usage=USAGE, stop_reason="done")

    broken = RecordingBackend()
    context_runners: dict[str, JUnitCheckRunner] = {}
    job = Job(0, Selected(setup.suite, setup.task), 1, setup.runs / "t.jsonl")
    context = TaskContext(
        settings=RunSettings(suites=[str(setup.suite.root)], executor="host"),
        agent=PlayedAgent(then_break),
        backend=broken,
        runners=context_runners,
        emit=lambda kind, _job, message: None,
    )
    row = anyio.run(lambda: run_job(job, context))
    assert row.status is Status.ERR and row.failure == "KeyError: 'junit'"
    assert row.steps == 4


def test_keep_leaves_the_agents_folder_and_names_it(setup: Setup) -> None:
    agent = PlayedAgent(answer_42)
    row, _ = _run(setup, agent, keep=True)
    workspace = agent.turns[0].workspace
    assert row.workspace == str(workspace)
    assert (workspace / "src" / "answer.txt").read_text() == "42\n"


def test_without_keep_the_agents_folder_is_removed(setup: Setup) -> None:
    agent = PlayedAgent(answer_42)
    row, _ = _run(setup, agent)
    assert row.workspace is None and not agent.turns[0].workspace.exists()


def test_the_agents_change_is_stored_as_a_diff_beside_the_transcript(setup: Setup) -> None:
    _run(setup, PlayedAgent(answer_42), store_change=True)
    row, _ = _run(setup, PlayedAgent(answer_42), store_change=True)
    assert row.change == "changes/t-2.diff" and row.notices == ["a notice"]
    patch = (setup.runs / "run" / "changes" / "t-2.diff").read_text()
    assert "-41" in patch and "+42" in patch


def test_the_change_of_an_agent_past_its_limit_is_stored_too(setup: Setup) -> None:
    async def edit_then_hang(turn: AgentTurn) -> AgentOutcome:
        (turn.workspace / "src" / "answer.txt").write_text("43\n")
        return await hang(turn)

    row, _ = _run(setup, PlayedAgent(edit_then_hang), timeout_s=1.0, store_change=True)
    assert row.stop_reason == "timeout" and row.change == "changes/t-2.diff"
    assert "+43" in (setup.runs / "run" / "changes" / "t-2.diff").read_text()


def test_counts_the_agent_does_not_report_come_from_its_progress(setup: Setup) -> None:
    async def quiet(turn: AgentTurn) -> AgentOutcome:
        turn.progress.tool_calls["read"] = 4
        turn.progress.usage_by_model["m"] = USAGE
        return AgentOutcome(steps=None, usage=USAGE, stop_reason="done")

    progress = Progress()
    row, _ = _run(setup, PlayedAgent(quiet), progress=progress)
    assert row.tool_calls == {"read": 4} and row.usage_by_model == {"m": USAGE}
    assert progress.steps is None and progress.usage == USAGE


def test_an_interrupted_row_keeps_what_the_agent_used(setup: Setup) -> None:
    progress = Progress(steps=5, usage=USAGE, tool_calls={"bash": 3}, usage_by_model={"m": USAGE})
    job = Job(0, Selected(setup.suite, setup.task), 1, setup.runs / "t.jsonl")
    row = interrupted_row(job, progress, 1234)
    assert row.status is Status.INTERRUPTED and row.stop_reason == "interrupted"
    assert row.failure == "interrupted before it finished (Ctrl-C)"
    assert (row.steps, row.usage, row.duration_ms) == (5, USAGE, 1234)
    assert row.tool_calls == {"bash": 3} and row.usage_by_model == {"m": USAGE}
    assert row.workspace is None


def test_counts_the_agent_reports_win_over_its_progress(setup: Setup) -> None:
    async def loud(turn: AgentTurn) -> AgentOutcome:
        turn.progress.tool_calls["read"] = 4
        turn.progress.usage_by_model["m"] = USAGE
        return AgentOutcome(
            steps=1,
            usage=USAGE,
            stop_reason="done",
            tool_calls={"bash": 1},
            usage_by_model={"n": USAGE},
        )

    row, _ = _run(setup, PlayedAgent(loud))
    assert row.tool_calls == {"bash": 1} and row.usage_by_model == {"n": USAGE}


def test_the_harness_limit_is_ten_minutes_unless_told(setup: Setup) -> None:
    context = TaskContext(
        settings=RunSettings(),
        agent=PlayedAgent(do_nothing),
        backend=RecordingBackend(),
        runners={},
        emit=lambda kind, _job, message: None,
    )
    assert context.task_timeout_s == 600.0


def test_an_agent_that_removes_its_folder_fails_with_a_notice(setup: Setup) -> None:
    async def remove(turn: AgentTurn) -> AgentOutcome:
        shutil.rmtree(turn.workspace)
        return AgentOutcome(steps=1, usage=USAGE, stop_reason="done")

    row, _ = _run(setup, PlayedAgent(remove), store_change=True)
    assert row.status is Status.FAIL and row.change is None
    assert len(row.notices) == 1
    assert row.notices[0].startswith("the agent's change was not kept: ")


def test_without_git_the_run_goes_on_and_says_the_change_is_not_kept(
    setup: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(setup.runs / "no-tools-here"))
    row, _ = _run(setup, PlayedAgent(do_nothing), store_change=True)
    assert row.status is Status.FAIL and row.change is None
    assert row.notices == ["the agent's change will not be kept: git is not installed"]


def test_durations_are_milliseconds_of_this_run(setup: Setup) -> None:
    before = time.monotonic()
    row, _ = _run(setup, PlayedAgent(answer_42))
    elapsed_ms = (time.monotonic() - before) * 1000
    assert 0 <= row.agent_duration_ms <= row.duration_ms <= elapsed_ms + 1


def test_git_gone_during_the_turn_keeps_the_run_with_a_notice(
    setup: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def hide_git(turn: AgentTurn) -> AgentOutcome:
        monkeypatch.setenv("PATH", str(setup.runs / "no-tools-here"))
        return AgentOutcome(steps=1, usage=USAGE, stop_reason="done")

    row, _ = _run(setup, PlayedAgent(hide_git), store_change=True)
    assert row.status is Status.FAIL and row.change is None
    assert row.notices == ["the agent's change was not kept: git is not installed"]


class ClosingExecutor(RecordingExecutor):
    """Its close waits on something, as a sandbox's does (its proxy)."""

    async def aclose(self) -> None:
        """Yield to the event loop once, where a cancellation lands."""
        await anyio.sleep(0)
        await super().aclose()


class ClosingBackend(RecordingBackend):
    """Makes closing executors."""

    def create(self, policy: SandboxPolicy) -> Executor:
        """A recording executor whose close awaits."""
        self.recorded.policies.append(policy)
        return ClosingExecutor(policy, self.recorded, len(self.recorded.policies))


def _stoppable(setup: Setup, agent: Agent, backend: RecordingBackend) -> tuple[Job, TaskContext]:
    """A job and its context for a run the test cancels itself (no limit, no events kept)."""
    job = Job(0, Selected(setup.suite, setup.task), 1, setup.runs / "t.jsonl")
    context = TaskContext(
        settings=RunSettings(suites=[str(setup.suite.root)], executor="host"),
        agent=agent,
        backend=backend,
        runners={"junit": JUnitCheckRunner("junit")},
        emit=lambda kind, _job, message: None,
    )
    return job, context


def test_a_run_stopped_by_ctrl_c_still_cleans_up(setup: Setup) -> None:
    started = anyio.Event()

    async def wait_forever(turn: AgentTurn) -> AgentOutcome:
        started.set()
        await anyio.sleep(1000)
        raise AssertionError("not reached")

    backend = ClosingBackend()
    job, context = _stoppable(setup, PlayedAgent(wait_forever), backend)

    async def go() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(run_job, job, context)
            await started.wait()
            group.cancel_scope.cancel()

    anyio.run(go)
    assert backend.recorded.closed == [1]
    assert _leftovers() == []


class OnceClosingExecutor(RecordingExecutor):
    """Its close runs once (a second call returns at once) and waits on its helper, as a
    sandbox that stops a proxy would; it records when the helper has stopped."""

    def __init__(self, policy: SandboxPolicy, recorded: Recorded, number: int) -> None:
        super().__init__(policy, recorded, number)
        self.closing, self.helper_gone = anyio.Event(), anyio.Event()

    async def aclose(self) -> None:
        """Once: say so, wait for the helper, record the close."""
        if self.closing.is_set():
            return
        self.closing.set()
        await self.helper_gone.wait()
        await super().aclose()


class OnceClosingBackend(RecordingBackend):
    """Makes once-closing executors and keeps them."""

    def __init__(self) -> None:
        super().__init__()
        self.executors: list[OnceClosingExecutor] = []

    def create(self, policy: SandboxPolicy) -> Executor:
        """A once-closing executor."""
        self.recorded.policies.append(policy)
        self.executors.append(OnceClosingExecutor(policy, self.recorded, len(self.executors) + 1))
        return self.executors[-1]


def test_ctrl_c_during_the_close_after_the_turn_lets_the_close_finish(setup: Setup) -> None:
    # An executor's close is never cut short: one begun when Ctrl-C lands runs to its end.
    backend = OnceClosingBackend()
    job, context = _stoppable(setup, PlayedAgent(answer_42), backend)

    async def go() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(run_job, job, context)
            while not backend.executors:
                await anyio.sleep(0.01)
            await backend.executors[0].closing.wait()
            group.cancel_scope.cancel()
            backend.executors[0].helper_gone.set()

    anyio.run(go)
    assert backend.recorded.closed == [1]
    assert _leftovers() == []


class SpentAgent(PlayedAgent):
    """A played agent whose run's spend cap is reached."""

    def budget_spent(self) -> str | None:
        """Spent."""
        return "spend cap of $0.01 reached"


async def stop_for_budget(turn: AgentTurn) -> AgentOutcome:
    """Change nothing and say the spend cap stopped the turn."""
    return AgentOutcome(steps=1, usage=USAGE, stop_reason=BUDGET_STOP)


def test_a_turn_cut_by_the_spend_cap_is_interrupted_not_judged(setup: Setup) -> None:
    row, _ = _run(setup, SpentAgent(stop_for_budget))
    assert row.status is Status.INTERRUPTED and row.check is None
    assert row.failure == "stopped by the run's spend cap (--max-cost) before it finished"
    assert (row.steps, row.usage) == (1, USAGE)


def test_a_turn_that_only_claims_the_spend_cap_is_judged(setup: Setup) -> None:
    """Out of both rates is what INT means: an agent cannot buy that for a failing run."""
    row, _ = _run(setup, PlayedAgent(stop_for_budget))
    assert row.status is Status.FAIL and row.stop_reason == BUDGET_STOP
    assert row.failure == "check exited 1: 1 failed: t::answer"


async def hang_silently(turn: AgentTurn) -> AgentOutcome:
    """Work past every limit without ever saying what it used."""
    await anyio.sleep(60)
    raise AssertionError("not reached")


async def crash_silently(turn: AgentTurn) -> AgentOutcome:
    """Fail without saying what was used."""
    raise RuntimeError("boom")


def _unknown(usage: Usage) -> bool:
    return not usage.tokens_known and usage.cost_incomplete and usage.total_tokens == 0


def test_progress_starts_unknown_never_a_known_zero() -> None:
    progress = Progress()
    assert progress.steps is None and _unknown(progress.usage)
    assert progress.usage.notes == [NOT_REPORTED]


def test_an_agent_that_never_reports_its_progress_is_unknown_past_the_limit(
    setup: Setup,
) -> None:
    row, _ = _run(setup, PlayedAgent(hang_silently), timeout_s=0.5)
    assert row.status is Status.FAIL and row.stop_reason == "timeout"
    assert row.steps is None and _unknown(row.usage)


def test_an_agent_that_never_reports_its_progress_is_unknown_when_it_raises(
    setup: Setup,
) -> None:
    row, _ = _run(setup, PlayedAgent(crash_silently))
    assert row.status is Status.ERR and row.failure == "RuntimeError: boom"
    assert row.steps is None and _unknown(row.usage)


def test_an_interrupted_agent_that_reported_nothing_is_unknown(setup: Setup) -> None:
    started = anyio.Event()

    async def wait_forever(turn: AgentTurn) -> AgentOutcome:
        started.set()
        await anyio.sleep(1000)
        raise AssertionError("not reached")

    progress = Progress()
    job, context = _stoppable(setup, PlayedAgent(wait_forever), RecordingBackend())

    async def go() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(run_job, job, context, progress)
            await started.wait()
            group.cancel_scope.cancel()

    anyio.run(go)
    row = interrupted_row(job, progress, 10)
    assert row.status is Status.INTERRUPTED
    assert row.steps is None and _unknown(row.usage)


class BrokenSuite(EnvSuite):
    """A suite whose task cannot be written: the harness fails before any agent turn."""

    def materialize(self, task: Task, workspace: Path) -> None:
        """Fail."""
        raise OSError("disk full")


def test_a_harness_error_before_the_turn_is_a_known_zero(setup: Setup) -> None:
    broken = BrokenSuite(setup.suite.root)
    broken.released = []
    agent = PlayedAgent(answer_42)
    row, _ = _run(Setup(broken, setup.task, setup.runs), agent)
    assert row.status is Status.ERR and row.failure == "OSError: disk full"
    assert agent.turns == []
    assert row.steps == 0 and row.usage == Usage.known_zero()
