"""aider (real, pinned, from PyPI) under garuda against the fake OpenAI server, metered.

aider edits through text, not tool calls: the scripted reply holds SEARCH/REPLACE blocks that
turn the task's files into its reference solution."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from garuda_evals_agent.testing import FakeModelServer, Reply, Text, Tokens
from garuda_evals_agent_cli.testing import eval_env, garuda_eval, installed

MODEL = "openai/gpt-4.1"
REAL_KEY = "sk-real-key-for-aider-0123456789"


@pytest.fixture(scope="session")
def aider(agents_dir: Path) -> Path:
    """aider, pinned, installed once (with uv when there is one: seconds, not minutes)."""
    return installed("aider", agents_dir)


def edits(task: Any) -> str:
    """aider's diff format: each solution file's whole old text replaced by its new text."""
    blocks = [
        f"{path}\n```python\n<<<<<<< SEARCH\n{task.files[path]}=======\n{text}"
        ">>>>>>> REPLACE\n```\n"
        for path, text in task.solution.files.items()
    ]
    return "Here is the fix.\n\n" + "\n".join(blocks)


def test_aider_solves_a_task_in_the_sandbox_metered(
    tmp_path: Path, aider: Path, agents_dir: Path, python_task: Any
) -> None:
    with FakeModelServer([]) as server:
        server.script = [Reply([Text(edits(python_task))], usage=Tokens(3000, 400, 1000))]
        env = eval_env(
            agents_dir,
            OPENAI_API_KEY=REAL_KEY,
            OPENAI_BASE_URL=f"{server.url}/v1",
            GARUDA_PRICE_PROVIDER="openai",
        )
        done, report = garuda_eval(
            tmp_path, env, "--agent", "aider", "-m", MODEL, "-s", "python",
            "-t", python_task.id, "--executor", "os",
        )  # fmt: skip
        calls = server.model_calls()
    assert report is not None, done.stdout + done.stderr
    result = report["results"][0]
    assert result["status"] == "PASS", Path(result["transcript"]).read_text()[-4000:]
    assert result["steps"] == 1 == len(calls)
    usage = result["usage"]
    assert (usage["inputTokens"], usage["cacheReadTokens"], usage["outputTokens"]) == (
        3000,
        1000,
        400,
    )
    assert usage["costUsd"] > 0 and not usage["costIncomplete"]
    auth = [{k.lower(): v for k, v in r["headers"].items()}["authorization"] for r in calls]
    assert auth == [f"Bearer {REAL_KEY}"]
    assert report["agent"]["cli"] == "aider-chat"
