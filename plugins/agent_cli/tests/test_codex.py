"""Codex (real, pinned) under garuda against the fake Responses API, metered."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from garuda_evals_agent.testing import FakeModelServer, Reply, Text, Tokens, Use
from garuda_evals_agent_cli.testing import eval_env, garuda_eval, key_search, writes_solution

MODEL = "openai/gpt-5-codex"
REAL_KEY = "sk-proj-real-key-for-the-test-9876543210"


def test_codex_solves_a_task_in_the_sandbox_metered(
    tmp_path: Path, codex: Path, agents_dir: Path, python_task: Any
) -> None:
    with FakeModelServer([]) as server:
        port = server.url.rsplit(":", 1)[1]
        probe = (
            f"{key_search(REAL_KEY)}; "
            f"python3 -c \"import urllib.request as u; u.urlopen('http://127.0.0.1:{port}/')\""
        )
        server.script = [
            Reply([Use("exec_command", {"cmd": probe})], usage=Tokens(400, 20, 2000)),
            Reply(
                [Use("exec_command", {"cmd": writes_solution(python_task)})],
                usage=Tokens(300, 40, 2100),
            ),
            Reply([Text("Done.")], usage=Tokens(200, 10, 2200)),
        ]
        env = eval_env(
            agents_dir,
            OPENAI_API_KEY=REAL_KEY,
            OPENAI_BASE_URL=f"{server.url}/v1",
            GARUDA_PRICE_PROVIDER="openai",
        )
        done, report = garuda_eval(
            tmp_path, env, "--agent", "codex", "-m", MODEL, "-s", "python",
            "-t", python_task.id, "--executor", "os",
        )  # fmt: skip
        requests = list(server.model_calls())
    assert report is not None, done.stdout + done.stderr
    result = report["results"][0]
    transcript = Path(result["transcript"]).read_text()
    assert result["status"] == "PASS", transcript[-3000:]
    kinds = [
        (line["type"], line.get("step"), line.get("status"))
        for line in map(json.loads, transcript.splitlines())
    ]
    assert result["steps"] == 3 == len(requests), kinds
    usage = result["usage"]
    assert (usage["inputTokens"], usage["cacheReadTokens"], usage["outputTokens"]) == (
        900,
        6300,
        70,
    )
    assert usage["tokensKnown"] and not usage["costIncomplete"] and usage["costUsd"] > 0
    assert report["agent"]["cli"] == "@openai/codex"
    assert report["agent"]["cliVersion"] == "0.171.0"
    keys = [{k.lower(): v for k, v in r["headers"].items()}["authorization"] for r in requests]
    assert keys == [f"Bearer {REAL_KEY}"] * 3
    assert "Connection refused" in transcript
    assert "KEYHITS 0 []" in transcript
    assert not result.get("notices"), result.get("notices")
