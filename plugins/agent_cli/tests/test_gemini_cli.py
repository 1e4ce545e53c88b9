"""Gemini CLI (real, pinned) under garuda against the fake Gemini API, metered."""

from __future__ import annotations

from typing import Any

from garuda_evals_agent.testing import Reply, Text, Tokens, Use
from garuda_evals_agent_cli.testing import Solve, check_metered_pass, writes_solution

MODEL = "gemini/gemini-2.5-pro"
REAL_KEY = "real-gemini-key"


def test_gemini_cli_solves_a_task_in_the_sandbox_metered(solve: Solve, python_task: Any) -> None:
    # Gemini CLI refuses $(...) in shell commands: the solution is written without it.
    command = writes_solution(python_task)
    script = [
        Reply([Use("run_shell_command", {"command": command})], usage=Tokens(300, 20, 1000)),
        Reply([Text("Done.")], usage=Tokens(10, 5, 1300)),
    ]
    run = solve(
        "gemini-cli", MODEL, script, GEMINI_API_KEY=REAL_KEY, GOOGLE_GEMINI_BASE_URL="{url}"
    )
    check_metered_pass(run, steps=2, usage=Tokens(310, 25, 2300), key=("x-goog-api-key", REAL_KEY))
