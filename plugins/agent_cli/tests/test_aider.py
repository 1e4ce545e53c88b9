"""aider (real, pinned, from PyPI) under garuda against the fake OpenAI server, metered.

aider edits through text, not tool calls: the scripted reply holds SEARCH/REPLACE blocks that
turn the task's files into its reference solution (``aider_edits``)."""

from __future__ import annotations

from typing import Any

from garuda_evals_agent.testing import Reply, Text, Tokens
from garuda_evals_agent_cli.testing import Solve, aider_edits, check_metered_pass

MODEL = "openai/gpt-4.1"
REAL_KEY = "sk-real-key-for-aider-0123456789"
OPENAI = {
    "OPENAI_API_KEY": REAL_KEY,
    "OPENAI_BASE_URL": "{url}/v1",
    "GARUDA_PRICE_PROVIDER": "openai",
}


def test_aider_solves_a_task_in_the_sandbox_metered(solve: Solve, python_task: Any) -> None:
    script = [Reply([Text(aider_edits(python_task))], usage=Tokens(3000, 400, 1000))]
    run = solve("aider", MODEL, script, **OPENAI)
    check_metered_pass(
        run, steps=1, usage=Tokens(3000, 400, 1000), key=("authorization", f"Bearer {REAL_KEY}")
    )
    assert run.report["agent"]["cli"] == "aider-chat"
