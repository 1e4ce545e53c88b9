"""``garuda eval -m anthropic/...`` end to end: the console script against the fake server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.testing import only_report, run_garuda, skip_or_fail
from garuda_evals_agent.testing import Fault, Reply, Text, Tokens, Use

GARUDA = Path(sys.executable).parent / "garuda"
MODEL = "anthropic/claude-haiku-4-5"
SOLVING = Tokens(input=2000, output=300, cache_read=5000)


@pytest.fixture(scope="module")
def python_tasks() -> list[Any]:
    """The python suite's tasks (from garuda-evals-python)."""
    suites = PluginRegistry().collect("garuda_suites")
    if "python" not in suites:
        skip_or_fail("garuda-evals-python", "the python suite is not installed")
    return suites["python"].record.load().tasks()


def solve(task: Any, usage: Tokens | None = SOLVING) -> list[Reply]:
    """A model that writes the reference solution, then says it is done."""
    writes = [Use("write_file", {"path": p, "content": c}) for p, c in task.solution.files.items()]
    return [Reply(writes, usage=usage), Reply([Text("done")], usage=Tokens(input=100, output=10))]


def garuda_eval(
    cwd: Path, server_url: str, *args: str
) -> tuple[subprocess.CompletedProcess[str], dict]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("ANTHROPIC_", "OPENAI_", "GARUDA_"))
    }
    env.update(
        ANTHROPIC_API_KEY="test-key",
        ANTHROPIC_BASE_URL=server_url,
        GARUDA_AGENT_RETRY_DELAY_S="0.01",
        GARUDA_AGENT_RETRIES="2",
        GARUDA_BATCH_POLL_S="0.01",
    )
    done = run_garuda(
        "eval", "-m", MODEL, "-s", "python", "--executor", "host", *args,
        cwd=cwd, env=env, timeout=600,
    )  # fmt: skip
    return done, only_report(cwd, done.stdout + done.stderr)


def row(stdout: str, task_id: str) -> str:
    return next(line for line in stdout.splitlines() if line.startswith(f"python/{task_id}"))


def test_eval_with_a_model_solves_a_task_with_usage_and_cost(tmp_path, fake_server, python_tasks):
    task = python_tasks[0]
    server = fake_server(solve(task))
    done, report = garuda_eval(tmp_path, server.url, "-t", task.id)
    assert done.returncode == 0, done.stdout + done.stderr
    result = report["results"][0]
    assert result["status"] == "PASS" and result["steps"] == 2
    usage = result["usage"]
    assert (usage["inputTokens"], usage["cacheReadTokens"], usage["outputTokens"]) == (
        2100,
        5000,
        310,
    )
    assert usage["tokensKnown"] and not usage["costIncomplete"] and usage["costUsd"] > 0
    assert report["agent"]["model"] == MODEL and report["agent"]["keepThinking"] == "on"
    assert report["summary"]["cacheReadShare"] == pytest.approx(5000 / 7100)  # of input tokens
    assert "PASS" in row(done.stdout, task.id) and "$0.0" in row(done.stdout, task.id)
    transcript = Path(result["transcript"])
    kinds = [json.loads(line)["type"] for line in transcript.read_text().splitlines()]
    assert kinds.count("request") == 2 and kinds.count("tool_result") == len(task.solution.files)


def test_eval_without_usage_shows_unknown_tokens_and_a_minimum_cost(
    tmp_path, fake_server, python_tasks
):
    task = python_tasks[0]
    server = fake_server(solve(task, usage=None))
    done, report = garuda_eval(tmp_path, server.url, "-t", task.id)
    assert done.returncode == 0, done.stdout + done.stderr
    line = row(done.stdout, task.id)
    assert "tok ?" in line and "(incomplete)" in line and "≥ $" in line
    usage = report["results"][0]["usage"]
    assert (
        not usage["tokensKnown"] and usage["costIncomplete"] and usage["unreportedTokens"] > 16_384
    )
    assert report["summary"]["tokens"] is None and report["summary"]["costIncomplete"]


def test_retries_exhausted_is_an_error_run_counted_in_both_rates(
    tmp_path, fake_server, python_tasks
):
    first, second = python_tasks[0], python_tasks[1]
    server = fake_server([*solve(first), *[Fault(drop=True)] * 3])
    done, report = garuda_eval(tmp_path, server.url, "-t", first.id, "-t", second.id)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "ERR" in row(done.stdout, second.id)
    summary = report["summary"]
    assert (summary["attempted"], summary["errors"], summary["scored"], summary["passed"]) == (
        2,
        1,
        1,
        1,
    )
    assert (summary["scoredRate"], summary["attemptedRate"]) == (1.0, 0.5)
    assert "1/1 scored runs passed (100%) · 1/2 of all attempted runs (50%)" in done.stdout
    error = report["results"][1]
    assert error["status"] == "ERR" and "after 2 retries" in error["failure"]
    assert error["usage"]["unreportedRequests"] == 3  # broken streams may have been billed


def test_eval_with_a_model_and_no_key_stops_before_any_task(tmp_path, model_env):
    done = subprocess.run(
        [str(GARUDA), "eval", "-m", MODEL, "-s", "python", "--executor", "host"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "ANTHROPIC_API_KEY" in done.stderr
    assert not list(tmp_path.glob(".garuda/evals/*/report.json"))


def test_eval_in_batch_mode_is_half_price(tmp_path, fake_server, python_tasks):
    task = python_tasks[0]
    server = fake_server(solve(task))
    done, report = garuda_eval(tmp_path, server.url, "-t", task.id, "--batch", "on")
    assert done.returncode == 0, done.stdout + done.stderr
    assert report["batch"] is True and report["parallel"] == 1 and report["wallMs"] > 0
    assert report["agent"]["batch"] == "on"
    assert report["results"][0]["usage"]["cacheReadTokens"] == 5000
    assert "batch: wall time" in done.stdout
    paths = [r["path"] for r in server.requests if r["method"] == "POST"]
    assert paths == ["/v1/messages/batches", "/v1/messages/batches"]
    lines = Path(report["results"][0]["transcript"]).read_text().splitlines()
    factors = [row["priceFactor"] for row in map(json.loads, lines) if row["type"] == "response"]
    assert factors == [0.5, 0.5]
