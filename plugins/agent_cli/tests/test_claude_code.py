"""Claude Code (real, pinned) under garuda against the fake Anthropic server, metered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from garuda_evals_agent.testing import FakeModelServer, Reply, Text, Tokens, Use
from garuda_evals_agent.testing.budget import MAX_COST, budget_script, check_budget_stop
from garuda_evals_agent_cli.testing import (
    Solve,
    check_metered_pass,
    eval_env,
    garuda_eval,
    sandbox_probe,
    writes_solution,
)

MODEL = "anthropic/claude-sonnet-4-5"
REAL_KEY = "sk-ant-real-key-for-the-test-0123456789"


def test_claude_code_solves_a_task_in_the_sandbox_metered(solve: Solve, python_task: Any) -> None:
    def script(url: str) -> list[Reply]:
        """Probe the sandbox, write the solution, then finish."""
        probe, solution = sandbox_probe(REAL_KEY, url), writes_solution(python_task)
        return [
            Reply([Use("Bash", {"command": probe})], usage=Tokens(100, 20, 2000, 100)),
            Reply([Use("Bash", {"command": solution})], usage=Tokens(10, 30, 2100, 0)),
            Reply([Text("Done.")], usage=Tokens(5, 7, 2200, 0)),
        ]

    run = solve(
        "claude-code", MODEL, script, ANTHROPIC_API_KEY=REAL_KEY, ANTHROPIC_BASE_URL="{url}"
    )
    check_metered_pass(run, steps=3, usage=Tokens(115, 57, 6300, 100), key=("x-api-key", REAL_KEY))
    assert run.report["agent"]["cli"] == "@anthropic-ai/claude-code"
    assert run.report["agent"]["cliVersion"] == "2.1.332"
    assert "Connection refused" in run.transcript
    assert "KEYHITS 0 []" in run.transcript


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
