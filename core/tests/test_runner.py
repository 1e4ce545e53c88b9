"""The runner end to end on the mini suite, in process: pass, fail, cheats, timeouts, errors."""

from __future__ import annotations

import io
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest

from garuda_evals.models.report import Report
from garuda_evals.models.result import Status
from garuda_evals.models.usage import Usage
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.runner.session import EvalOutcome, run_eval
from garuda_evals.testing import run_garuda
from garuda_evals.testing import run_settings as make_settings


@dataclass(frozen=True)
class Ran:
    """An outcome with what the run printed."""

    outcome: EvalOutcome
    stdout: str
    stderr: str

    @property
    def exit_code(self) -> int:
        return self.outcome.exit_code

    @property
    def report(self) -> Report | None:
        return self.outcome.report

    @property
    def report_path(self) -> Path | None:
        return self.outcome.report_path


def evaluate(project: Path, suite: Path, **settings: object) -> Ran:
    defaults: dict[str, object] = {"suites": [str(suite)], "executor": "host"}
    run_settings = make_settings(**{**defaults, **settings})
    out, err = io.StringIO(), io.StringIO()

    async def go() -> EvalOutcome:
        return await run_eval(
            run_settings, registry=PluginRegistry(), cwd=project, stdout=out, stderr=err
        )

    return Ran(anyio.run(go), out.getvalue(), err.getvalue())


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / ".git").mkdir(parents=True)
    return folder


def test_oracle_passes_every_task_and_writes_report(project: Path, mini_suite: Path) -> None:
    outcome = evaluate(project, mini_suite, agent="oracle")
    assert outcome.exit_code == 0
    report = outcome.report
    assert report is not None and [r.status for r in report.results] == [Status.PASS, Status.PASS]
    assert outcome.report_path is not None
    assert outcome.report_path.parent.parent == project / ".garuda" / "evals"
    saved = json.loads(outcome.report_path.read_text())
    assert saved["schemaVersion"] == 1
    summary = saved["summary"]
    assert (summary["attempted"], summary["errors"], summary["scored"], summary["passed"]) == (
        2,
        0,
        2,
        2,
    )
    assert summary["scoredRate"] == 1.0 and summary["attemptedRate"] == 1.0
    assert summary["costIncomplete"] is False and summary["tokensKnown"] is True
    assert saved["settings"]["agent"] == "oracle" and saved["executor"]["name"] == "host"
    assert saved["backend"] == "local" and saved["settings"]["backend"] == "local"
    assert [r["node"] for r in saved["results"]] == [None, None]
    assert saved["versions"]["garuda-evals"]
    first = saved["results"][0]
    assert first["check"]["testsRan"] == 1 and first["check"]["exitCode"] == 0
    assert (outcome.report_path.parent / "add.jsonl").read_text().strip()
    assert "2/2 scored runs passed (100%)" in outcome.stdout


def test_noop_fails_every_task_with_the_check_reason(project: Path, mini_suite: Path) -> None:
    outcome = evaluate(project, mini_suite, agent="noop")
    assert outcome.exit_code == 2
    assert outcome.report is not None
    for result in outcome.report.results:
        assert result.status is Status.FAIL
        assert result.failure and result.failure.startswith("check exited 1")


CHEATS = {
    "edit a test": (
        "printf 'def test_add():\\n    pass\\n' > tests/test_calc.py",
        "protected files changed: changed tests/test_calc.py",
    ),
    "delete a test": (
        "rm tests/test_calc.py",
        "protected files changed: deleted tests/test_calc.py",
    ),
    "add a test file": (
        "printf 'def test_x():\\n    pass\\n' > tests/test_extra.py",
        "added tests/test_extra.py",
    ),
    "conftest that skips": (
        "printf 'import pytest\\ndef pytest_collection_modifyitems(items):\\n    items.clear()\\n' > conftest.py",
        "check exited",
    ),
    "pytest.ini that deselects": (
        "printf '[pytest]\\naddopts = -k nothing\\n' > pytest.ini",
        "check exited",
    ),
    "exit 0 without running tests": (
        "printf 'import os\\nos._exit(0)\\n' > src/calc.py",
        "no evidence that tests ran",
    ),
}


@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_cheats_fail_with_their_reason(project: Path, mini_suite: Path, cheat: str) -> None:
    command, reason = CHEATS[cheat]
    outcome = evaluate(
        project, mini_suite, agent="command", agent_command=command, task_ids=["add"]
    )
    assert outcome.exit_code == 2
    assert outcome.report is not None
    (result,) = outcome.report.results
    assert result.status is Status.FAIL
    assert result.failure and reason in result.failure


def test_command_agent_that_solves_passes_with_unknown_usage(
    project: Path, mini_suite: Path
) -> None:
    command = 'test -n "$GARUDA_PROMPT" && grep -q "wrong sum" "$GARUDA_PROMPT_FILE" && sed -i "s/a - b/a + b/" src/calc.py'
    outcome = evaluate(
        project, mini_suite, agent="command", agent_command=command, task_ids=["add"]
    )
    assert outcome.exit_code == 0
    assert outcome.report is not None
    (result,) = outcome.report.results
    assert result.usage.tokens_known is False and result.usage.cost_incomplete is True
    assert outcome.report.summary.tokens is None and outcome.report.summary.cost_incomplete
    assert "tok ?" in outcome.stdout and "≥ $0.000 (incomplete)" in outcome.stdout


def test_timeout_is_a_failure_with_stop_reason_timeout(project: Path, mini_suite: Path) -> None:
    outcome = evaluate(
        project,
        mini_suite,
        agent="command",
        agent_command="sleep 30",
        task_ids=["add"],
        task_timeout_s=1.0,
    )
    assert outcome.report is not None
    (result,) = outcome.report.results
    assert result.status is Status.FAIL and result.stop_reason == "timeout"
    assert result.duration_ms < 20_000


def test_repeats_and_parallel_keep_task_order_and_name_transcripts(
    project: Path, mini_suite: Path
) -> None:
    outcome = evaluate(project, mini_suite, agent="oracle", repeat=2, parallel=3)
    assert outcome.report is not None
    order = [(r.task, r.repeat) for r in outcome.report.results]
    assert order == [("add", 1), ("add", 2), ("greet", 1), ("greet", 2)]
    run_dir = outcome.report_path.parent
    assert {p.name for p in run_dir.glob("*.jsonl")} == {
        "results.jsonl",
        "add.jsonl",
        "add-2.jsonl",
        "greet.jsonl",
        "greet-2.jsonl",
    }
    assert [m.runs for m in outcome.report.tasks] == [2, 2]
    assert "means per task" in outcome.stdout


BOOM_AGENT = """
from garuda_evals.agents.base import Agent, AgentFactory, AgentOutcome
from garuda_evals.agents.oracle import apply_solution
from garuda_evals.models.usage import Usage


class BoomAgent(Agent):
    async def run(self, turn):
        turn.progress.steps = 3
        turn.progress.usage = Usage(input_tokens=100, output_tokens=10, cost_usd=0.5, requests=3)
        if turn.task.id == "greet":
            raise ConnectionError("the API connection broke after retries")
        apply_solution(turn.workspace, turn.task.solution)
        return AgentOutcome(steps=1, usage=Usage(input_tokens=10, output_tokens=5, cost_usd=0.25), stop_reason="done")


class BoomFactory(AgentFactory):
    name = "boom"
    description = "raises on greet"

    def create(self, settings):
        return BoomAgent()
"""


def test_error_run_counts_in_attempted_rate_and_keeps_its_cost(
    project: Path, mini_suite: Path, fake_dist, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = fake_dist(
        "boom-agent",
        {"garuda_evals.agents": {"boom": "boom_agent:BoomFactory"}},
        {"boom_agent.py": BOOM_AGENT},
    )
    monkeypatch.syspath_prepend(str(site))
    outcome = evaluate(project, mini_suite, agent="boom")
    assert outcome.exit_code == 2
    report = outcome.report
    assert report is not None
    assert [r.status for r in report.results] == [Status.PASS, Status.ERR]
    error = report.results[1]
    assert error.stop_reason == "error" and "ConnectionError" in (error.failure or "")
    assert error.steps == 3 and error.usage.cost_usd == 0.5
    summary = report.summary
    assert (summary.attempted, summary.errors, summary.scored, summary.passed) == (2, 1, 1, 1)
    assert summary.scored_rate == 1.0 and summary.attempted_rate == 0.5
    assert summary.cost_usd == pytest.approx(0.75)
    assert (
        "1/1 scored runs passed (100%) · 1/2 of all attempted runs (50%) · 1 error run(s)"
        in outcome.stdout
    )


def test_model_flags_are_refused_for_agents_without_a_model(
    project: Path, mini_suite: Path
) -> None:
    from garuda_evals.errors import UsageError

    with pytest.raises(UsageError, match="--todo on: the oracle agent calls no model"):
        evaluate(project, mini_suite, agent="oracle", todo="on")
    with pytest.raises(UsageError, match="--agent-command"):
        evaluate(project, mini_suite, agent="command")


def test_unknown_task_id_lists_the_tasks(project: Path, mini_suite: Path) -> None:
    from garuda_evals.errors import UsageError

    with pytest.raises(UsageError, match=r"-t nope: no such task .* add, greet"):
        evaluate(project, mini_suite, agent="oracle", task_ids=["nope"])


def test_keep_leaves_the_workspace(project: Path, mini_suite: Path) -> None:
    outcome = evaluate(project, mini_suite, agent="oracle", keep=True, task_ids=["add"])
    assert outcome.report is not None
    kept = Path(outcome.report.results[0].workspace or "")
    try:
        assert f"[mini/add] kept: {kept}" in outcome.stderr
        assert (kept / "src" / "calc.py").read_text().count("a + b") == 1
    finally:
        shutil.rmtree(kept, ignore_errors=True)


SLOW_AGENT = """
import anyio
from garuda_evals.agents.base import Agent, AgentFactory, AgentOutcome
from garuda_evals.models.usage import Usage


class SlowAgent(Agent):
    async def run(self, turn):
        turn.progress.steps = 2
        await anyio.sleep(15)
        return AgentOutcome(steps=9, usage=Usage(), stop_reason="done")


class SlowFactory(AgentFactory):
    name = "slow"
    description = "ignores its time limit"

    def create(self, settings):
        return SlowAgent()
"""


def test_the_harness_ends_an_agent_that_ignores_the_task_limit(
    project: Path, mini_suite: Path, fake_dist, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = fake_dist(
        "slow-agent",
        {"garuda_evals.agents": {"slow": "slow_agent:SlowFactory"}},
        {"slow_agent.py": SLOW_AGENT},
    )
    monkeypatch.syspath_prepend(str(site))
    outcome = evaluate(project, mini_suite, agent="slow", task_ids=["add"], task_timeout_s=1.0)
    assert outcome.report is not None
    (result,) = outcome.report.results
    assert (result.status, result.stop_reason, result.steps) == (Status.FAIL, "timeout", 2)
    assert result.failure == "the agent ran past the 1 s task limit"
    assert result.check is None


def test_a_missing_program_exits_1_before_any_task(project: Path, mini_suite: Path) -> None:
    done = run_garuda(
        "eval", "--agent", "command", "--agent-command", "no-such-agent-cli",
        "-s", str(mini_suite), "--executor", "host", cwd=project,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "preflight: --agent-command starts with 'no-such-agent-cli'" in done.stderr
    assert not list(project.glob(".garuda/evals/*/report.json"))


def test_a_command_whose_interpreter_is_missing_is_err_naming_the_flag(
    project: Path, mini_suite: Path, tmp_path: Path
) -> None:
    """The script exists (the preflight passes), but what its ``#!`` names does not."""
    agent = tmp_path / "my-agent"
    agent.write_text("#!/usr/bin/env no-such-interpreter\necho never >&2\n")
    agent.chmod(0o755)
    outcome = evaluate(project, mini_suite, agent="command", agent_command=str(agent))
    assert outcome.report is not None
    assert [r.status for r in outcome.report.results] == [Status.ERR, Status.ERR]
    # nothing of the command ran: a known zero, not an unknown spend
    assert outcome.report.results[0].usage == Usage.known_zero()
    failure = outcome.report.results[0].failure
    assert failure == (
        "CommandStartError: the agent command could not start: --agent-command starts with "
        f"'{agent}', whose interpreter 'no-such-interpreter' is not found here (PATH="
        + failure.split("(PATH=", 1)[1]
    ), failure


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ("bash -c 'echo boom-from-stderr >&2; exit 127'", 127),
        ("exit 126", 126),
        # Output past the cap (whose head is kept) cannot push the start line out.
        ("head -c 600000 /dev/zero | tr '\\0' x; exit 127", 127),
    ],
)
def test_an_exit_the_command_chooses_is_judged(
    project: Path, mini_suite: Path, command: str, code: int
) -> None:
    """126 and 127 are bash's "cannot start" codes, but a started command may exit with any."""
    outcome = evaluate(
        project, mini_suite, agent="command", agent_command=command, task_ids=["add"]
    )
    assert outcome.report is not None
    (result,) = outcome.report.results
    assert (result.status, result.stop_reason) == (Status.FAIL, f"exit {code}"), result.failure
    assert outcome.report.summary.scored == 1


def test_command_agent_steps_are_unknown(project: Path, mini_suite: Path) -> None:
    outcome = evaluate(project, mini_suite, agent="command", agent_command="true", task_ids=["add"])
    assert outcome.report is not None
    (result,) = outcome.report.results
    assert result.steps is None and not outcome.report.summary.steps_known
    row = next(line for line in outcome.stdout.splitlines() if "/add" in line)
    assert row.split()[2] == "?"
    assert "total: ? steps" in outcome.stdout
