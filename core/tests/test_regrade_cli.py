"""``garuda regrade`` through the command: a regrade's report is built like a run's (its
summary from its own rows, each task's version, so ``garuda compare`` refuses it across a
changed suite), and a run a limit stopped never turns PASS."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from garuda_evals.testing import run_garuda

FIX_ADD = "cp {mini}/add/solution/src/calc.py src/calc.py"
GREET_PASSES_AS_IS = 'from greet import greet\n\n\ndef test_greet():\n    assert greet("x")\n'

LATE_AGENT = """
import shutil
import time
from pathlib import Path

import anyio
from garuda_evals.agents.base import Agent, AgentFactory, AgentOutcome, RunLimits
from garuda_evals.models.usage import Usage

SOLUTIONS = Path({solutions!r})


class LateAgent(Agent):
    async def run(self, turn):
        if turn.task.id == "add":
            shutil.copy(SOLUTIONS / "add/solution/src/calc.py", turn.workspace / "src/calc.py")
            # blocks past the task limit where cancelling cannot reach it
            await anyio.to_thread.run_sync(time.sleep, turn.timeout_s + 1)
        return AgentOutcome(steps=1, usage=Usage(), stop_reason="done")


class LateFactory(AgentFactory):
    name = "late"
    description = "solves add but returns past the task limit"

    def limits(self, settings):
        return RunLimits(task_timeout_s=1.0)

    def create(self, settings):
        return LateAgent()
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / ".git").mkdir(parents=True)
    return folder


def reports(project: Path) -> dict[str, dict[str, Any]]:
    found = {}
    for path in (project / ".garuda" / "evals").glob("*/report.json"):
        data = json.loads(path.read_text())
        found[data["runId"]] = data
    return found


def rows(report: dict[str, Any]) -> list[tuple[str, str]]:
    return [(r["task"], r["status"]) for r in report["results"]]


def versions(report: dict[str, Any]) -> dict[str, str]:
    return {t["task"]: t["taskVersion"] for t in report["tasks"]}


def regrade(project: Path, run_id: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    before = set(reports(project))
    done = run_garuda("regrade", run_id, cwd=project, env=env)
    assert done.returncode == 0, done.stderr
    (new,) = set(reports(project)) - before
    return reports(project)[new]


def test_a_regrade_is_built_like_a_run_and_compare_refuses_it_across_a_changed_suite(
    project: Path, mini_suite: Path
) -> None:
    done = run_garuda(
        "eval", "--agent", "command", "--agent-command", FIX_ADD.format(mini=mini_suite),
        "-s", str(mini_suite), "--executor", "host", cwd=project,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    ((run_id, original),) = reports(project).items()
    assert rows(original) == [("add", "PASS"), ("greet", "FAIL")]
    assert all(versions(original).values())

    same = regrade(project, run_id)
    assert versions(same) == versions(original)
    assert run_garuda("compare", run_id, same["runId"], cwd=project).returncode == 0

    (mini_suite / "greet" / "files" / "tests" / "test_greet.py").write_text(GREET_PASSES_AS_IS)
    changed = regrade(project, run_id)
    assert rows(changed) == [("add", "PASS"), ("greet", "PASS")]
    summary = changed["summary"]
    assert (summary["passed"], summary["scored"], summary["attempted"]) == (2, 2, 2)
    assert summary["scoredRate"] == summary["attemptedRate"] == 1.0
    assert [t["passes"] for t in changed["tasks"]] == [1, 1]
    assert versions(changed)["add"] == versions(original)["add"]
    assert versions(changed)["greet"] not in ("", versions(original)["greet"])

    refused = run_garuda("compare", run_id, changed["runId"], cwd=project)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert refused.stderr.strip() == (
        "garuda: error: the runs measure different things (--force compares them anyway): "
        "task definitions differ (another suite version): mini/greet"
    )
    forced = run_garuda("compare", run_id, changed["runId"], "--force", cwd=project)
    assert forced.returncode == 0, forced.stderr


def test_a_run_the_task_limit_stopped_never_turns_pass(
    project: Path, mini_suite: Path, fake_dist
) -> None:
    site = fake_dist(
        "late-agent",
        {"garuda_evals.agents": {"late": "late_agent:LateFactory"}},
        {"late_agent.py": LATE_AGENT.format(solutions=str(mini_suite))},
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = run_garuda(
        "eval", "--agent", "late", "-s", str(mini_suite), "--executor", "host",
        cwd=project, env=env,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    ((run_id, original),) = reports(project).items()
    add = original["results"][0]
    assert (add["status"], add["stopReason"], add["check"]) == ("FAIL", "timeout", None)
    assert add["failure"] == "the agent ran past the 1 s task limit"
    assert add["change"] == "changes/add.diff"  # the solution it wrote before the limit

    (mini_suite / "greet" / "files" / "tests" / "test_greet.py").write_text(GREET_PASSES_AS_IS)
    regraded = regrade(project, run_id, env)
    assert rows(regraded) == [("add", "FAIL"), ("greet", "PASS")]
    assert regraded["results"][0] == add
    assert regraded["summary"]["passed"] == 1

    # The same run as a garuda that judged a late agent wrote it: its own stop reason, a
    # FAIL from the check of the day, a turn as long as the limit. It still is not judged.
    report_file = project / ".garuda" / "evals" / run_id / "report.json"
    saved = json.loads(report_file.read_text())
    saved["results"][0].update(stopReason="done", failure="check exited 1", check=None)
    report_file.write_text(json.dumps(saved))
    assert saved["results"][0]["agentDurationMs"] >= 1000
    again = regrade(project, run_id, env)
    assert rows(again) == [("add", "FAIL"), ("greet", "PASS")]
    assert again["results"][0]["failure"] == "check exited 1"
