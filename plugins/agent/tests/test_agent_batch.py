"""--batch on: each call is a Message Batch of one at half price; other providers are refused."""

import pytest

from garuda_evals.errors import UsageError
from garuda_evals.testing import run_settings
from garuda_evals_agent.factory import GarudaAgentFactory
from garuda_evals_agent.testing import Fault, Reply, Text, Tokens, Use

TOKENS = Tokens(input=1_000_000, output=0)


def test_batch_run_is_half_price_and_waits_for_each_batch(fake_server, run_turn):
    server = fake_server(
        [Reply([Use("list_files", {})], usage=TOKENS), Reply([Text("done")], usage=TOKENS)]
    )
    run = run_turn(
        run_settings(model="anthropic/claude-haiku-4-5", batch="on"), files={"a.txt": "x"}
    )
    assert run.error is None, run.error
    assert (run.outcome.steps, run.outcome.stop_reason) == (2, "done")
    assert run.outcome.usage.cost_usd == pytest.approx(1.0)  # 2 x 1M input at $1/M, halved
    assert [r["priceFactor"] for r in run.lines("response")] == [0.5, 0.5]
    paths = [(r["method"], r["path"]) for r in server.requests]
    assert ("POST", "/v1/messages") not in paths
    assert paths.count(("POST", "/v1/messages/batches")) == 2
    polls = [p for m, p in paths if m == "GET" and p.count("/") == 4]
    assert len(polls) >= 4  # each batch was polled until it ended
    created = server.model_calls()[0]["body"]["requests"][0]
    assert "stream" not in created["params"] and created["params"]["model"] == "claude-haiku-4-5"


def test_batch_errored_result_is_retried(fake_server, run_turn):
    fake_server([Fault(error_type="overloaded_error"), Reply([Text("done")])])
    run = run_turn(run_settings(model="anthropic/claude-haiku-4-5", batch="on"))
    assert run.error is None, run.error
    assert [kind for kind, _ in run.events].count("retry") == 1


@pytest.mark.parametrize("model", ["openai/gpt-4o", "ollama/qwen3-coder:30b"])
def test_batch_with_another_provider_is_refused_before_any_call(model_env, model):
    model_env.setenv("OPENAI_API_KEY", "k")
    with pytest.raises(UsageError, match="Anthropic models only"):
        GarudaAgentFactory().check_settings(run_settings(model=model, batch="on"))


def test_a_batch_still_waited_on_at_the_task_limit_is_cancelled(fake_server, run_turn):
    server = fake_server([Reply([Text("late")])], batch_polls=10**6)
    run = run_turn(run_settings(model="anthropic/claude-haiku-4-5", batch="on"), limit_s=1.0)
    assert isinstance(run.error, TimeoutError)
    assert server.requests[-1]["path"] == "/v1/messages/batches/msgbatch_0001/cancel"
    assert run.lines("end")[0]["stopReason"] == "cancelled"
