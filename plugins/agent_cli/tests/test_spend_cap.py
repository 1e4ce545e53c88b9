"""``--max-cost`` with an agent CLI where it used to do nothing: an unpriced model, replies
without a usage report, and a cap that stops the run between two tasks. aider (real, pinned,
one model call per task) against the fake OpenAI server, through the proxy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from garuda_evals_agent.testing import FakeModelServer, Reply, Text
from garuda_evals_agent.testing.budget import COSTLY, MAX_COST
from garuda_evals_agent_cli.testing import aider_edits, eval_env, garuda_eval

MODEL = "openai/gpt-4.1"


def capped_aider(
    tmp_path: Path, agents_dir: Path, url: str, model: str = MODEL, **env: str
) -> tuple[Any, dict[str, Any] | None]:
    values = {"OPENAI_API_KEY": "sk-real", "OPENAI_BASE_URL": f"{url}/v1", **env}
    return garuda_eval(
        tmp_path, eval_env(agents_dir, **values), "--agent", "aider", "-m", model,
        "-s", "python", "--executor", "host", "--max-cost", MAX_COST,
    )  # fmt: skip


def test_max_cost_with_a_model_that_has_no_price_is_refused_at_start(
    tmp_path: Path, agents_dir: Path, aider: Path
) -> None:
    """``openai/x`` at a custom base URL has no price: the cap counted nothing and every
    task ran. Refused before any call, in one line."""
    with FakeModelServer([]) as server:
        done, report = capped_aider(tmp_path, agents_dir, server.url, "openai/x")
        requests = list(server.requests)
    assert done.returncode == 1 and report is None, done.stdout + done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"garuda: error: --max-cost {MAX_COST}: no known price for openai/x")
    assert requests == []


def test_without_usage_reports_the_cap_still_stops_the_run(
    tmp_path: Path, agents_dir: Path, aider: Path, python_task: Any
) -> None:
    """Replies without usage counted 0 against the cap: all five tasks ran. The call now
    counts its reservation (the output limit, or 32,000 tokens when the request states none,
    plus the estimated input) at the model's dearest token."""
    script = [Reply([Text(aider_edits(python_task))], usage=None)] * 5
    with FakeModelServer(script) as server:
        done, report = capped_aider(
            tmp_path, agents_dir, server.url, GARUDA_PRICE_PROVIDER="openai"
        )
        calls = len(server.model_calls())
    assert report is not None, done.stdout + done.stderr
    assert calls == 1, "tasks went on after a call without usage crossed the cap"
    (row,) = report["results"]
    assert row["status"] == "PASS" and not row["usage"]["tokensKnown"]
    assert row["usage"]["unreportedTokens"] > 0 and row["usage"]["costIncomplete"]
    assert report["stoppedBy"] and f"--max-cost {MAX_COST}" in report["stoppedBy"]
    assert done.returncode == 2


def test_a_cap_that_keeps_tasks_from_starting_exits_2(
    tmp_path: Path, agents_dir: Path, aider: Path, python_task: Any
) -> None:
    """aider makes one call per task, so the call that crosses the cap ends a task that
    passes, and no run is cut short: the other four never start. Exit 2, not 0."""
    script = [Reply([Text(aider_edits(python_task))], usage=COSTLY)]
    with FakeModelServer(script) as server:
        done, report = capped_aider(
            tmp_path, agents_dir, server.url, GARUDA_PRICE_PROVIDER="openai"
        )
    assert report is not None, done.stdout + done.stderr
    assert [row["status"] for row in report["results"]] == ["PASS"]
    assert done.returncode == 2, done.stdout + done.stderr
    (note,) = [w for w in report["warnings"] if w.startswith("budget: ")]
    assert "0 run(s) cut short (INT) and 4 of 5 not started" in note
