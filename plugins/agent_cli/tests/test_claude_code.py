"""Claude Code (real, pinned) under garuda against the fake Anthropic server, metered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from garuda_evals_agent.testing import FakeModelServer, Reply, Text, Tokens, Use
from garuda_evals_agent.testing.budget import MAX_COST, budget_script, check_budget_stop
from garuda_evals_agent_cli.testing import eval_env, garuda_eval, key_search, writes_solution

MODEL = "anthropic/claude-sonnet-4-5"
REAL_KEY = "sk-ant-real-key-for-the-test-0123456789"


def script(task: Any, probe: str) -> list[Reply]:
    """Probe the sandbox, write the solution, then finish."""
    return [
        Reply([Use("Bash", {"command": probe})], usage=Tokens(100, 20, 2000, 100)),
        Reply([Use("Bash", {"command": writes_solution(task)})], usage=Tokens(10, 30, 2100, 0)),
        Reply([Text("Done.")], usage=Tokens(5, 7, 2200, 0)),
    ]


def test_claude_code_solves_a_task_in_the_sandbox_metered(
    tmp_path: Path, claude_code: Path, agents_dir: Path, python_task: Any
) -> None:
    with FakeModelServer([]) as server:
        port = server.url.rsplit(":", 1)[1]
        probe = (
            f"{key_search(REAL_KEY)}; "
            f"python3 -c \"import urllib.request as u; u.urlopen('http://127.0.0.1:{port}/')\""
        )
        server.script = script(python_task, probe)
        env = eval_env(agents_dir, ANTHROPIC_API_KEY=REAL_KEY, ANTHROPIC_BASE_URL=server.url)
        done, report = garuda_eval(
            tmp_path, env, "--agent", "claude-code", "-m", MODEL, "-s", "python",
            "-t", python_task.id, "--executor", "os",
        )  # fmt: skip
        requests = list(server.model_calls())
    assert report is not None, done.stdout + done.stderr
    result = report["results"][0]
    transcript = Path(result["transcript"]).read_text()
    assert result["status"] == "PASS", transcript[-3000:]
    assert result["steps"] == 3 == len(requests)
    usage = result["usage"]
    assert (usage["inputTokens"], usage["outputTokens"]) == (115, 57)
    assert (usage["cacheReadTokens"], usage["cacheWriteTokens"]) == (6300, 100)
    assert usage["tokensKnown"] and not usage["costIncomplete"] and usage["costUsd"] > 0
    assert report["agent"]["cli"] == "@anthropic-ai/claude-code"
    assert report["agent"]["cliVersion"] == "2.1.332"
    keys = [{k.lower(): v for k, v in r["headers"].items()}["x-api-key"] for r in requests]
    assert keys == [REAL_KEY] * 3
    assert "Connection refused" in transcript
    assert "KEYHITS 0 []" in transcript
    assert not result.get("notices"), result.get("notices")


def test_past_max_cost_the_proxy_refuses_and_the_run_stops(
    tmp_path: Path, claude_code: Path, agents_dir: Path, python_task: Any
) -> None:
    with FakeModelServer([]) as server:
        server.script = budget_script("Bash", "command", writes_solution(python_task))
        env = eval_env(agents_dir, ANTHROPIC_API_KEY=REAL_KEY, ANTHROPIC_BASE_URL=server.url)
        done, report = garuda_eval(
            tmp_path, env, "--agent", "claude-code", "-m", MODEL, "-s", "python",
            "--executor", "host", "--max-cost", MAX_COST,
        )  # fmt: skip
        calls = len(server.model_calls())
    assert report is not None, done.stdout + done.stderr
    assert calls == 3, "the call after the cap reached the model"
    check_budget_stop(report, python_task)
    second = report["results"][1]
    assert second["steps"] == 1
    assert report["agent"]["maxCostUsd"] == MAX_COST
    assert "proxy_refused" in Path(second["transcript"]).read_text()
