"""Codex (real, pinned) under garuda against the fake Responses API, metered."""

from __future__ import annotations

from typing import Any

from garuda_evals_agent.testing import Reply, Text, Tokens, Use
from garuda_evals_agent_cli.testing import Solve, check_metered_pass, sandbox_probe, writes_solution

MODEL = "openai/gpt-5-codex"
REAL_KEY = "sk-proj-real-key-for-the-test-9876543210"
OPENAI = {
    "OPENAI_API_KEY": REAL_KEY,
    "OPENAI_BASE_URL": "{url}/v1",
    "GARUDA_PRICE_PROVIDER": "openai",
}


def test_codex_solves_a_task_in_the_sandbox_metered(solve: Solve, python_task: Any) -> None:
    def script(url: str) -> list[Reply]:
        return [
            Reply(
                [Use("exec_command", {"cmd": sandbox_probe(REAL_KEY, url)})],
                usage=Tokens(400, 20, 2000),
            ),
            Reply(
                [Use("exec_command", {"cmd": writes_solution(python_task)})],
                usage=Tokens(300, 40, 2100),
            ),
            Reply([Text("Done.")], usage=Tokens(200, 10, 2200)),
        ]

    run = solve("codex", MODEL, script, **OPENAI)
    check_metered_pass(
        run, steps=3, usage=Tokens(900, 70, 6300), key=("authorization", f"Bearer {REAL_KEY}")
    )
    assert run.report["agent"]["cli"] == "@openai/codex"
    assert run.report["agent"]["cliVersion"] == "0.171.0"
    assert "Connection refused" in run.transcript
    assert "KEYHITS 0 []" in run.transcript
