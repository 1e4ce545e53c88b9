"""Transient errors are retried with backoff; what still fails is an error run."""

from garuda_evals.testing import run_settings
from garuda_evals_agent.loop import AgentRunError
from garuda_evals_agent.testing import Fault, Reply, Text, Tokens, Use

MODEL = run_settings(model="anthropic/claude-haiku-4-5")


def test_529_and_500_are_retried_then_succeed(fake_server, run_turn):
    server = fake_server([Fault(529), Fault(500, error_type="api_error"), Reply([Text("done")])])
    run = run_turn(MODEL)
    assert run.error is None, run.error
    assert (run.outcome.steps, run.outcome.stop_reason) == (1, "done")
    assert len(server.model_calls()) == 3
    retries = [line for kind, line in run.events if kind == "retry"]
    assert len(retries) == 2 and "529" in retries[0] and "500" in retries[1]
    assert run.outcome.usage.requests == 1 and run.outcome.usage.tokens_known
    assert len(run.lines("retry")) == 2


def test_dropped_connection_that_exhausts_retries_is_an_error_run(fake_server, run_turn):
    server = fake_server([Fault(drop=True) for _ in range(4)] + [Reply([Text("never")])])
    run = run_turn(MODEL)
    assert isinstance(run.error, AgentRunError)
    assert "after 3 retries" in str(run.error)
    assert len(server.model_calls()) == 4
    assert len([kind for kind, _ in run.events if kind == "retry"]) == 3
    # each broken stream may have been billed: its reservation counts, so the cost is a minimum
    assert run.error.usage.unreported_requests == 4 and run.error.usage.cost_incomplete
    assert run.lines("end")[0]["stopReason"] == "error"


def test_openai_dropped_stream_then_success(fake_server, run_turn):
    fake_server(
        [Fault(drop=True), Reply([Text("done")], usage=Tokens(input=10, output=2))],
        provider="openai",
    )
    run = run_turn(run_settings(model="openai/some-local-model"))
    assert run.error is None, run.error
    assert run.outcome.stop_reason == "done"
    assert [kind for kind, _ in run.events].count("retry") == 1


def test_bad_request_is_not_retried(fake_server, run_turn):
    server = fake_server([Fault(400, error_type="invalid_request_error")])
    run = run_turn(MODEL)
    assert isinstance(run.error, AgentRunError) and "400" in str(run.error)
    assert len(server.model_calls()) == 1


def test_overload_inside_a_stream_is_retried(fake_server, run_turn):
    server = fake_server([Fault(in_stream=True), Reply([Text("done")])])
    run = run_turn(MODEL)
    assert run.error is None, run.error
    assert len(server.model_calls()) == 2
    retries = [line for kind, line in run.events if kind == "retry"]
    assert len(retries) == 1 and "overloaded_error" in retries[0]
    # the broken stream had begun: it may have been billed, so its reservation counts
    assert run.outcome.usage.unreported_requests == 1 and run.outcome.usage.cost_incomplete


def test_openai_429_is_retried(fake_server, run_turn):
    fake_server(
        [Fault(429, error_type="rate_limit_error"), Reply([Text("done")])], provider="openai"
    )
    run = run_turn(run_settings(model="openai/some-local-model"))
    assert run.error is None, run.error
    retries = [line for kind, line in run.events if kind == "retry"]
    assert len(retries) == 1 and "429" in retries[0]


def test_a_request_refused_after_the_turn_began_ends_the_turn_to_be_judged(fake_server, run_turn):
    """Cheat: an agent failing a task grows its conversation past the model's window (or
    sends any request the API refuses). As an error run it would leave both the scored rate
    and an A/B comparison (the pair is dropped); once the model has been called, a refused
    request ends the turn like a step limit, and the work is judged."""
    script = [
        Reply([Use("list_files", {})]),
        Fault(400, error_type="invalid_request_error"),
    ]
    server = fake_server(script)
    run = run_turn(MODEL)
    assert run.error is None, run.error
    assert run.outcome.usage.requests == 1 and run.outcome.stop_reason.startswith("model refused: ")
    assert "400" in run.outcome.stop_reason and len(server.model_calls()) == 2
    assert run.lines("end")[0]["stopReason"] == run.outcome.stop_reason
