"""End to end: the agent solves a real pytest task through the fake server and passes the check."""

from pathlib import Path

import anyio

from garuda_evals.checks.junit import JUnitCheckRunner
from garuda_evals.environment import check_environment
from garuda_evals.executors.base import SandboxPolicy
from garuda_evals.executors.host import HostBackend
from garuda_evals.runner.check import Judge, judge_in_copy
from garuda_evals.suites.folder import load_folder_suite
from garuda_evals.testing import run_settings
from garuda_evals_agent.testing import Reply, Text, Think, Tokens, Use

SUITE = {
    "suite.toml": """
name = "mini"
requires = []
[check]
command = "python3 -m pytest -q -c pyproject.toml --noconftest -p no:cacheprovider \
--junitxml={junit}"
runner = "junit"
""",
    "shared/pyproject.toml": """
[project]
name = "calc"
version = "0"
[tool.pytest.ini_options]
pythonpath = ["src"]
""",
    "add/task.toml": (
        'title = "fix add"\nprompt = "add() in src/calc.py returns the wrong sum. Fix it."\n'
    ),
    "add/files/src/calc.py": "def add(a, b):\n    return a - b\n",
    "add/files/tests/test_calc.py": (
        "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
    ),
    "add/solution/src/calc.py": "def add(a, b):\n    return a + b\n",
}

SOLVE = [
    Reply(
        [Think("Look at the code first."), Use("read_file", {"path": "src/calc.py"})],
        usage=Tokens(input=900, output=40, cache_write=1200),
    ),
    Reply(
        [
            Think("It subtracts."),
            Text("Fixing the operator."),
            Use("edit_file", {"path": "src/calc.py", "old_text": "a - b", "new_text": "a + b"}),
        ],
        usage=Tokens(input=50, output=60, cache_read=2100),
    ),
    Reply(
        [Use("run_command", {"command": "python3 -m pytest -q -p no:cacheprovider"})],
        usage=Tokens(input=80, output=30, cache_read=2200),
    ),
    Reply(
        [Text("add() now adds; the test passes.")],
        usage=Tokens(input=120, output=15, cache_read=2300),
    ),
]


def write_suite(root: Path) -> None:
    for name, text in SUITE.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_agent_solves_a_pytest_task_and_passes_the_check(tmp_path, fake_server, run_turn):
    write_suite(tmp_path / "suite")
    suite = load_folder_suite(tmp_path / "suite")
    task = suite.tasks()[0]
    workspace = tmp_path / "ws"
    workspace.mkdir()
    suite.materialize(task, workspace)
    server = fake_server(SOLVE)

    run = run_turn(
        run_settings(model="anthropic/claude-haiku-4-5"),
        workspace=workspace,
        prompt=task.prompt,
        task=task,
    )

    assert run.error is None, run.error
    assert (run.outcome.steps, run.outcome.stop_reason) == (4, "done")
    judge = Judge(
        suite=suite,
        backend=HostBackend(),
        base_policy=lambda folder: SandboxPolicy(workspace=folder),
        runner=JUnitCheckRunner("junit"),
        env=check_environment(),
    )
    verdict = anyio.run(lambda: judge_in_copy(task, workspace, judge))
    assert verdict.passed, verdict.reason
    assert verdict.check.tests_ran == 1

    usage = run.outcome.usage
    assert (usage.input_tokens, usage.output_tokens) == (1150, 145)
    assert (usage.cache_read_tokens, usage.cache_write_tokens) == (6600, 1200)
    assert usage.tokens_known and not usage.cost_incomplete
    assert usage.requests == 4
    assert 0 < usage.cost_usd < 0.05

    tools = [kind for kind, _ in run.events if kind == "tool"]
    assert len(tools) == 3
    result = run.lines("tool_result")[2]
    assert result["name"] == "run_command" and "1 passed" in result["content"]
    assert [row["type"] for row in run.lines()][:3] == ["start", "request", "response"]
    assert len(run.lines("request")) == 4 and run.lines("end")[0]["stopReason"] == "done"

    bodies = [call["body"] for call in server.model_calls()]
    assert all(body["stream"] and body["thinking"]["type"] == "enabled" for body in bodies)
    assert bodies[0]["max_tokens"] == 16_384
    assert bodies[0]["system"][-1]["cache_control"] == {"type": "ephemeral"}
    assert (
        "Build notes" in bodies[0]["system"][0]["text"]
        and "pytest" in bodies[0]["system"][0]["text"]
    )
    assert bodies[1]["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    assert bodies[1]["messages"][-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}
