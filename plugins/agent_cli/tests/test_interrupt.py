"""Ctrl-C while an agent CLI waits on its model: Claude Code (real, pinned) in the OS sandbox,
the fake Anthropic server stalling on the call, SIGINT to garuda's process group."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

from garuda_evals.testing import GARUDA_SCRIPT, only_report
from garuda_evals_agent.testing import FakeModelServer, Reply, Text
from garuda_evals_agent_cli.testing import eval_env

MODEL = "anthropic/claude-sonnet-4-5"
STOP_WITHIN_S = 15
"""A bound on behaviour, not a benchmark: the proxy used to wait 60 s for the stalled call."""


def test_ctrl_c_during_a_model_call_stops_at_once_and_counts_the_call(
    tmp_path: Path, agents_dir: Path, claude_code: Path, python_task: Any
) -> None:
    with FakeModelServer([Reply([Text("too late")], delay_s=300)]) as server:
        env = eval_env(agents_dir, ANTHROPIC_API_KEY="sk-real", ANTHROPIC_BASE_URL=server.url)
        process = subprocess.Popen(
            [str(GARUDA_SCRIPT), "eval", "--agent", "claude-code", "-m", MODEL,
             "-s", "python", "-t", python_task.id, "--executor", "os"],
            cwd=tmp_path, env=env, text=True, start_new_session=True,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 180
            while not server.model_calls() and time.monotonic() < deadline:
                assert process.poll() is None, process.communicate()
                time.sleep(0.1)
            assert server.model_calls(), "Claude Code never called the model"
            os.killpg(process.pid, signal.SIGINT)
            interrupted = time.monotonic()
            stdout, stderr = process.communicate(timeout=120)
            elapsed = time.monotonic() - interrupted
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.communicate()
    assert process.returncode == 130, stderr
    assert elapsed < STOP_WITHIN_S, f"{elapsed:.1f} s from Ctrl-C to exit"
    assert "claude-code stopped; 1 model call(s) still running counted" in stderr
    (row,) = only_report(tmp_path, stderr)["results"]
    assert (row["status"], row["steps"]) == ("INT", 1)
    usage = row["usage"]
    assert not usage["tokensKnown"] and usage["costIncomplete"]
    assert (usage["requests"], usage["unreportedRequests"]) == (1, 1)
    assert usage["unreportedTokens"] > 0
    assert "totals incomplete" in stdout
