"""Under bwrap the agent reads neither the held-out tests (the suite's folder) nor the
future (the clone's history holds each fix); on the host, the control, it reads both."""

from __future__ import annotations

import json
import shlex

from garuda_evals.api import EXECUTORS, driver_names
from garuda_evals.testing import skip_or_fail

from .conftest import Imported


def _stolen(imported: Imported, executor: str) -> str:
    """What the agent's command copied into its workspace, as the run kept its change."""
    clone = imported.paths["repos"] / "acme__calc"
    # The saved task is named through its folder, so that the sandbox, not the check of the
    # files an agent command names, is what keeps it out of reach.
    tasks = imported.suite / "tasks"
    command = (
        f'tasks={shlex.quote(str(tasks))}; cat "$tasks/acme__calc-1.json" > stolen-tests.txt 2>&1; '
        f"git -C {shlex.quote(str(clone))} log --all --format=%s > stolen-history.txt 2>&1; true"
    )
    done = imported.garuda(
        "eval", "-s", str(imported.suite), "-t", "acme__calc-1", "--agent", "command",
        "--agent-command", command, "--executor", executor,
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    newest = sorted(imported.root.glob(".garuda/evals/*/report.json"))[-1]
    row = json.loads(newest.read_text())["results"][0]
    return (newest.parent / row["change"]).read_text(encoding="utf-8", errors="replace")


def test_the_agent_reads_no_held_out_test_nor_a_later_commit_in_the_sandbox(
    imported: Imported,
) -> None:
    if "bwrap" not in driver_names(EXECUTORS):
        skip_or_fail("bwrap", "install garuda-evals-sandbox-bwrap")
    sandboxed = _stolen(imported, "os")
    assert "stolen-tests.txt" in sandboxed and "stolen-history.txt" in sandboxed
    assert "test_f0_negative" not in sandboxed and "fix f0" not in sandboxed
    on_host = _stolen(imported, "host")
    assert "test_f0_negative" in on_host and "fix f0" in on_host, "control: the host shows both"
