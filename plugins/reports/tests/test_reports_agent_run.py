"""The HTML report of a real model-agent run (against the local fake model server): the
transcript the agent wrote is shown as the page promises, retries and tool calls included."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browser import Browser

from garuda_evals.testing import run_garuda

agent_testing = pytest.importorskip("garuda_evals_agent.testing")
MINI = Path(__file__).resolve().parents[3] / "core" / "tests" / "suite_data" / "mini"
SAID = "I will fix it <script>window.pwned=1</script>"


def test_a_model_run_with_a_retry_reads_as_its_transcript(tmp_path: Path, browser: Browser) -> None:
    solution = (MINI / "add" / "solution" / "src" / "calc.py").read_text(encoding="utf-8")
    script = [
        agent_testing.Fault(529),
        agent_testing.Reply(
            [
                agent_testing.Text(SAID),
                agent_testing.Use("write_file", {"path": "src/calc.py", "content": solution}),
            ]
        ),
        agent_testing.Reply([agent_testing.Text("done")]),
    ]
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("ANTHROPIC_", "OPENAI_", "GARUDA_", "GITHUB_"))
    }
    with agent_testing.FakeModelServer(script) as server:
        env.update(
            ANTHROPIC_API_KEY="test-key",
            ANTHROPIC_BASE_URL=server.url,
            GARUDA_AGENT_RETRY_DELAY_S="0.01",
            GARUDA_AGENT_RETRIES="2",
        )
        done = run_garuda(
            "eval", "-m", "anthropic/claude-haiku-4-5", "-s", str(MINI), "-t", "add",
            "--executor", "host", "--report-format", "html", cwd=tmp_path, env=env,
        )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "mini/add" in done.stdout and "PASS" in done.stdout  # the table on the terminal
    pages = list(tmp_path.glob(".garuda/evals/*/report.html"))
    assert len(pages) == 1 and f"html: {pages[0]}" in done.stderr
    log = browser.load(pages[0])
    assert log.errors == []
    assert browser.evaluate("document.querySelectorAll('script').length") == 0
    heads = browser.evaluate(
        "[...document.querySelectorAll('#run-1 .transcript .entry')]"
        ".map(e => e.querySelector('summary, div').textContent.trim())"
    )
    assert heads[0].startswith("start: model anthropic/claude-haiku-4-5, 6 tools")
    assert heads[1] == "step 1: request with 1 new message(s)"
    assert heads[2].startswith("step 1: retry (attempt 1")
    assert "tool call write_file" in heads and "tool result write_file" in heads
    assert heads[-1] == "end: done after 2 steps"
    said = browser.evaluate(
        "[...document.querySelectorAll('#run-1 .transcript .entry.response pre')]"
        ".map(e => e.textContent)"
    )
    assert said[0] == SAID
    assert browser.evaluate(
        "[...document.querySelectorAll('#run-1 .transcript .entry.request pre')]"
        ".some(e => e.textContent.includes('add() returns the wrong sum'))"
    )
