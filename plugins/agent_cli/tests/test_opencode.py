"""opencode (real, pinned) under garuda against the fake Anthropic server, metered.

Two scripted calls, two model calls: without ``--title`` opencode would first ask its small
model for a session title, and that call would take the tool call scripted for the agent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from garuda_evals_agent.testing import FakeModelServer, Reply, Text, Tokens, Use
from garuda_evals_agent_cli.testing import (
    eval_env,
    garuda_eval,
    installed,
    key_search,
    writes_solution,
)

MODEL = "anthropic/claude-sonnet-4-5"
REAL_KEY = "sk-ant-real-key-for-opencode-0123456789"


@pytest.fixture(scope="session")
def opencode(agents_dir: Path) -> Path:
    """opencode, pinned, installed once."""
    return installed("opencode", agents_dir)


def test_opencode_solves_a_task_in_the_sandbox_metered(
    tmp_path: Path, opencode: Path, agents_dir: Path, python_task: Any
) -> None:
    probe, solve = key_search(REAL_KEY), writes_solution(python_task)
    with FakeModelServer([]) as server:
        server.script = [
            Reply(
                [Use("bash", {"command": f"{probe}; {solve}", "description": "solve"})],
                usage=Tokens(300, 20, 1000, 50),
            ),
            Reply([Text("Done.")], usage=Tokens(10, 5, 1300)),
        ]
        env = eval_env(agents_dir, ANTHROPIC_API_KEY=REAL_KEY, ANTHROPIC_BASE_URL=server.url)
        done, report = garuda_eval(
            tmp_path, env, "--agent", "opencode", "-m", MODEL, "-s", "python",
            "-t", python_task.id, "--executor", "os",
        )  # fmt: skip
        calls = server.model_calls()
    assert report is not None, done.stdout + done.stderr
    result = report["results"][0]
    assert result["status"] == "PASS", Path(result["transcript"]).read_text()[-3000:]
    assert result["steps"] == 2 == len(calls)
    usage = result["usage"]
    assert (usage["inputTokens"], usage["cacheReadTokens"], usage["outputTokens"]) == (
        310,
        2300,
        25,
    )
    assert usage["cacheWriteTokens"] == 50
    assert usage["costUsd"] > 0 and not usage["costIncomplete"]
    assert all(r["headers"].get("x-api-key") == REAL_KEY for r in calls)
    assert "KEYHITS 0 []" in Path(result["transcript"]).read_text()
    assert report["agent"]["cli"] == "opencode-ai"
    assert not result.get("notices"), result.get("notices")
