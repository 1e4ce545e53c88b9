"""``--max-cost`` where it used to do nothing or say 0: an unpriced model, responses without
a usage report, and a cap that stops the run between two tasks. Real ``garuda eval`` of the
built-in agent against the fake servers (real SDKs)."""

from __future__ import annotations

import base64
import os
from pathlib import Path
from typing import Any

import pytest

from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.testing import only_report, run_garuda
from garuda_evals_agent.testing import FakeModelServer, Reply, Text, Use
from garuda_evals_agent.testing.budget import CHEAP, COSTLY, MAX_COST

MODEL = "anthropic/claude-haiku-4-5"


@pytest.fixture(scope="module")
def task() -> Any:
    """The python suite's first task."""
    return PluginRegistry().collect("garuda_suites")["python"].record.load().tasks()[0]


def solution(task: Any) -> str:
    return " && ".join(
        f"mkdir -p $(dirname {path}) && echo {base64.b64encode(text.encode()).decode()} "
        f"| base64 -d > {path}"
        for path, text in task.solution.files.items()
    )


def env_with(**values: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("ANTHROPIC_", "OPENAI_", "GARUDA_"))
    }
    return {**env, "GARUDA_AGENT_RETRIES": "0", **values}


def capped_eval(tmp_path: Path, env: dict[str, str], *args: str) -> Any:
    return run_garuda(
        "eval", "-s", "python", "--executor", "host", "--max-cost", MAX_COST, *args,
        cwd=tmp_path, env=env, timeout=600,
    )  # fmt: skip


def test_max_cost_with_a_model_that_has_no_price_is_refused_at_start(tmp_path: Path) -> None:
    """``openai/x`` at a custom base URL has no price: the cap would count nothing, and the
    whole run went through. Refused before any call, in one line."""
    with FakeModelServer([Reply([Text("never asked")])]) as server:
        env = env_with(OPENAI_BASE_URL=f"{server.url}/v1")
        done = capped_eval(tmp_path, env, "-m", "openai/x")
        requests = list(server.requests)
    assert done.returncode == 1, done.stdout + done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"garuda: error: --max-cost {MAX_COST}: no known price for openai/x")
    assert "GARUDA_PRICE_PROVIDER" in line and "Traceback" not in done.stderr
    assert requests == [] and not list(tmp_path.glob(".garuda/evals/*/report.json"))


def test_the_price_table_can_be_named_for_a_custom_base_url(tmp_path: Path, task: Any) -> None:
    """The way out the refusal names: GARUDA_PRICE_PROVIDER prices ``openai/gpt-4.1`` there."""
    writes = [Use("run_command", {"command": solution(task)}), Text("Done.")]
    script = [Reply(writes[:1], usage=CHEAP), Reply(writes[1:], usage=CHEAP)]
    with FakeModelServer(script) as server:
        env = env_with(OPENAI_BASE_URL=f"{server.url}/v1", GARUDA_PRICE_PROVIDER="openai")
        done = capped_eval(tmp_path, env, "-m", "openai/gpt-4.1", "-t", task.id)
    assert done.returncode == 0, done.stdout + done.stderr
    (row,) = only_report(tmp_path)["results"]
    assert row["status"] == "PASS" and row["usage"]["costUsd"] > 0


def test_without_usage_reports_the_cap_still_stops_the_run(tmp_path: Path, task: Any) -> None:
    """An API that reports no usage: every call counted 0 against the cap, so all five
    tasks ran. Each call now counts its reservation at the model's dearest token."""
    script = [Reply([Use("run_command", {"command": solution(task)})], usage=None)] * 5
    with FakeModelServer(script) as server:
        env = env_with(ANTHROPIC_API_KEY="test-key", ANTHROPIC_BASE_URL=server.url)
        done = capped_eval(tmp_path, env, "-m", MODEL)
        calls = len(server.model_calls())
    assert done.returncode == 2, done.stdout + done.stderr
    report = only_report(tmp_path, done.stderr)
    assert calls == 1, "calls went on after a call without usage crossed the cap"
    (row,) = report["results"]
    assert (row["status"], row["stopReason"]) == ("INT", "budget")
    assert not row["usage"]["tokensKnown"] and row["usage"]["unreportedTokens"] > 0
    assert report["stoppedBy"] and "--max-cost 0.05" in report["stoppedBy"]


def test_a_cap_that_keeps_tasks_from_starting_exits_2(tmp_path: Path, task: Any) -> None:
    """The first task's last call crosses the cap and the task passes; the other four never
    start. Not every run passed: exit 2, as the guide says (it was 0)."""
    script = [
        Reply([Use("run_command", {"command": solution(task)})], usage=CHEAP),
        Reply([Text("Done.")], usage=COSTLY),
    ]
    with FakeModelServer(script) as server:
        env = env_with(ANTHROPIC_API_KEY="test-key", ANTHROPIC_BASE_URL=server.url)
        done = capped_eval(tmp_path, env, "-m", MODEL)
        calls = len(server.model_calls())
    report = only_report(tmp_path, done.stderr)
    assert calls == 2 and [row["status"] for row in report["results"]] == ["PASS"]
    assert done.returncode == 2, done.stdout + done.stderr
    (note,) = [w for w in report["warnings"] if w.startswith("budget: ")]
    assert "0 run(s) cut short (INT) and 4 of 5 not started" in note
