"""Smoke: one tool call and an answer through the real anthropic SDK."""

from garuda_evals.testing import run_settings
from garuda_evals_agent.testing import Reply, Text, Use


def test_agent_lists_files_then_answers(fake_server, run_turn):
    server = fake_server([Reply([Use("list_files", {})]), Reply([Text("done")])])
    run = run_turn(run_settings(model="anthropic/claude-haiku-4-5"), files={"a.txt": "hi"})
    assert run.error is None, run.error
    assert run.outcome.steps == 2
    assert run.outcome.stop_reason == "done"
    second = server.model_calls()[1]["body"]
    assert "a.txt" in second["messages"][-1]["content"][0]["content"]
