"""A run that ``--max-cost 0.05`` stops after the second of the python suite's five tasks:
the script, and the checks on its report (shared by the built-in agent's and the CLIs' tests)."""

from __future__ import annotations

from typing import Any

from garuda_evals_agent.testing.script import Reply, Text, Tokens, Use

MAX_COST = "0.05"
CHEAP = Tokens(input=100, output=10)
COSTLY = Tokens(input=200_000, output=10)


def budget_script(tool: str, field: str, solution: str) -> list[Reply]:
    """Task one: solve it cheaply. Task two: one costly call; the next call must be refused."""
    return [
        Reply([Use(tool, {field: solution})], usage=CHEAP),
        Reply([Text("Done.")], usage=CHEAP),
        Reply([Use(tool, {field: "true"})], usage=COSTLY),
        Reply([Text("never sent: the cap was reached")], usage=CHEAP),
    ]


def check_budget_stop(report: dict[str, Any], first_task: Any) -> None:
    """The report of a run the cap stopped after the second of five tasks."""
    rows = {row["task"]: row for row in report["results"]}
    assert len(rows) == 2, list(rows)
    first, second = report["results"]
    assert first["task"] == first_task.id and first["status"] == "PASS"
    assert (second["status"], second["stopReason"]) == ("INT", "budget")
    assert "spend cap" in second["failure"]
    summary = report["summary"]
    # the cut-short run is out of both rates; what it spent is in the totals
    assert (summary["passed"], summary["scored"], summary["attempted"]) == (1, 1, 1)
    assert summary["totalsIncomplete"]
    assert summary["costUsd"] >= 0.05
    assert report["stoppedBy"] and "--max-cost 0.05" in report["stoppedBy"]
    (note,) = [w for w in report["warnings"] if w.startswith("budget: ")]
    assert "1 run(s) cut short (INT) and 3 of 5 not started" in note
