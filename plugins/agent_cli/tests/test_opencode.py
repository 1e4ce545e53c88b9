"""opencode (real, pinned) under garuda against the fake Anthropic server, metered.

Two scripted calls, two model calls: without ``--title`` opencode would first ask its small
model for a session title, and that call would take the tool call scripted for the agent."""

from __future__ import annotations

from typing import Any

from garuda_evals_agent.testing import Reply, Text, Tokens, Use
from garuda_evals_agent_cli.testing import Solve, check_metered_pass, key_search, writes_solution

MODEL = "anthropic/claude-sonnet-4-5"
REAL_KEY = "sk-ant-real-key-for-opencode-0123456789"


def test_opencode_solves_a_task_in_the_sandbox_metered(solve: Solve, python_task: Any) -> None:
    command = f"{key_search(REAL_KEY)}; {writes_solution(python_task)}"
    solve_call = Use("bash", {"command": command, "description": "solve"})
    script = [
        Reply([solve_call], usage=Tokens(300, 20, 1000, 50)),
        Reply([Text("Done.")], usage=Tokens(10, 5, 1300)),
    ]
    run = solve("opencode", MODEL, script, ANTHROPIC_API_KEY=REAL_KEY, ANTHROPIC_BASE_URL="{url}")
    check_metered_pass(run, steps=2, usage=Tokens(310, 25, 2300, 50), key=("x-api-key", REAL_KEY))
    assert "KEYHITS 0 []" in run.transcript
    assert run.report["agent"]["cli"] == "opencode-ai"
