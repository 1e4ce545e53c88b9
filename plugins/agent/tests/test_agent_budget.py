"""``--max-cost`` stops the run: a real ``garuda eval`` of the built-in agent against the fake
Anthropic server (real SDK). The first task finishes under the cap, the second crosses it and
is refused its next call (INT, stop ``budget``), the other three never start."""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest

from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.testing import only_report, run_garuda
from garuda_evals_agent.testing import FakeModelServer
from garuda_evals_agent.testing.budget import MAX_COST, budget_script, check_budget_stop

MODEL = "anthropic/claude-haiku-4-5"


def test_the_spend_cap_stops_the_built_in_agents_run(tmp_path: Path) -> None:
    suite = PluginRegistry().collect("garuda_suites")["python"].record.load()
    task = suite.tasks()[0]
    solution = " && ".join(
        f"mkdir -p $(dirname {path}) && echo {base64.b64encode(text.encode()).decode()} "
        f"| base64 -d > {path}"
        for path, text in task.solution.files.items()
    )
    with FakeModelServer(budget_script("run_command", "command", solution)) as server:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "GARUDA_"))}
        env.update(ANTHROPIC_API_KEY="test-key", ANTHROPIC_BASE_URL=server.url)
        done = run_garuda(
            "eval", "-m", MODEL, "-s", "python", "--executor", "host", "--max-cost", MAX_COST,
            cwd=tmp_path, env=env, timeout=600,
        )  # fmt: skip
        calls = len(server.model_calls())
    assert done.returncode == 2, done.stderr
    report = only_report(tmp_path, done.stderr)
    assert calls == 3, "the call after the cap was sent"
    check_budget_stop(report, task)
    assert "budget: " in done.stderr + done.stdout
    # the cap counted each call once: what it says was spent is what the rows cost
    rows_cost = sum(row["usage"]["costUsd"] for row in report["results"])
    assert report["summary"]["costUsd"] == pytest.approx(rows_cost)
    assert f"{rows_cost:.4f} USD spent)" in report["stoppedBy"], report["stoppedBy"]
