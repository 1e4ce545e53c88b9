"""Gemini CLI (real, pinned) under garuda against the fake Gemini API, metered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from garuda_evals_agent.testing import FakeModelServer, Reply, Text, Tokens, Use
from garuda_evals_agent_cli.testing import eval_env, garuda_eval, installed, writes_solution

MODEL = "gemini/gemini-2.5-pro"


@pytest.fixture(scope="session")
def gemini_cli(agents_dir: Path) -> Path:
    """Gemini CLI, pinned, installed once."""
    return installed("gemini-cli", agents_dir)


def test_gemini_cli_solves_a_task_in_the_sandbox_metered(
    tmp_path: Path, gemini_cli: Path, agents_dir: Path, python_task: Any
) -> None:
    with FakeModelServer([]) as server:
        # Gemini CLI refuses $(...) in shell commands: the solution is written without it.
        server.script = [
            Reply(
                [Use("run_shell_command", {"command": writes_solution(python_task)})],
                usage=Tokens(300, 20, 1000),
            ),
            Reply([Text("Done.")], usage=Tokens(10, 5, 1300)),
        ]
        env = eval_env(
            agents_dir, GEMINI_API_KEY="real-gemini-key", GOOGLE_GEMINI_BASE_URL=server.url
        )
        done, report = garuda_eval(
            tmp_path, env, "--agent", "gemini-cli", "-m", MODEL, "-s", "python",
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
    assert usage["costUsd"] > 0 and not usage["costIncomplete"]
    assert all(r["headers"].get("x-goog-api-key") == "real-gemini-key" for r in calls)
    assert not result.get("notices"), result.get("notices")
