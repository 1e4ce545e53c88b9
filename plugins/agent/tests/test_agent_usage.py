"""Usage and cost honesty: missing usage, unknown prices, OpenAI's cached tokens."""

import pytest

from garuda_evals.testing import run_settings
from garuda_evals_agent.messages import CallUsage
from garuda_evals_agent.pricing import PriceSource, price_call
from garuda_evals_agent.testing import Reply, Text, Tokens, Use


def test_response_without_usage_is_unknown_and_cost_incomplete(fake_server, run_turn):
    fake_server([Reply([Use("list_files", {})], usage=None), Reply([Text("done")])])
    run = run_turn(run_settings(model="anthropic/claude-haiku-4-5"))
    assert run.error is None, run.error
    usage = run.outcome.usage
    assert not usage.tokens_known and usage.cost_incomplete
    assert usage.unreported_requests == 1 and usage.requests == 2
    assert usage.unreported_tokens > 16_384  # the reservation: max_tokens plus the input
    assert (usage.input_tokens, usage.output_tokens) == (100, 20)  # only the reported call
    assert usage.cost_usd > 0  # a minimum: the reported call's price
    first = run.lines("response")[0]["usage"]
    assert first["reported"] is False and first["reservation"] == usage.unreported_tokens


def test_model_with_no_known_price_makes_cost_incomplete(fake_server, run_turn):
    fake_server([Reply([Text("done")], usage=Tokens(input=10, output=5))])
    run = run_turn(run_settings(model="anthropic/claude-unpriced-test-1"))
    usage = run.outcome.usage
    assert usage.tokens_known and usage.total_tokens == 15
    assert usage.cost_incomplete and usage.cost_usd == 0
    (note,) = usage.notes
    assert note.startswith("no known price for claude-unpriced-test-1: "), note


def test_openai_prompt_tokens_include_cached_ones(fake_server, run_turn, model_env):
    model_env.setenv("GARUDA_PRICE_PROVIDER", "openai")
    server = fake_server(
        [
            Reply([Use("list_files", {})], usage=Tokens(input=300, cache_read=700, output=50)),
            Reply([Text("done")], usage=Tokens(input=20, cache_read=1000, output=10)),
        ],
        provider="openai",
    )
    run = run_turn(run_settings(model="openai/gpt-4o"))
    assert run.error is None, run.error
    usage = run.outcome.usage
    assert (usage.input_tokens, usage.cache_read_tokens, usage.output_tokens) == (320, 1700, 60)
    assert usage.tokens_known and not usage.cost_incomplete and usage.cost_usd > 0
    body = server.model_calls()[0]["body"]
    assert body["stream_options"] == {"include_usage": True}


def test_openai_reasoning_tokens_are_part_of_output(fake_server, run_turn, model_env):
    model_env.setenv("GARUDA_PRICE_PROVIDER", "openai")
    fake_server(
        [Reply([Text("done")], usage=Tokens(input=300, output=2500, reasoning=2400))],
        provider="openai",
    )
    run = run_turn(run_settings(model="openai/o3"))
    assert run.error is None, run.error
    usage = run.outcome.usage
    assert (usage.input_tokens, usage.output_tokens, usage.reasoning_tokens) == (300, 2500, 2400)
    assert usage.total_tokens == 2800 and usage.tokens_known


@pytest.mark.parametrize("factor", [1.0, 0.5])
def test_prices_come_from_genai_prices(factor):
    usage = CallUsage(input_tokens=1_000_000, output_tokens=0)
    price_call(usage, "claude-haiku-4-5", PriceSource(provider_id="anthropic"), factor)
    assert usage.cost_usd == pytest.approx(1.0 * factor)
    cached = CallUsage(cache_read_tokens=1_000_000)
    price_call(cached, "claude-haiku-4-5", PriceSource(provider_id="anthropic"))
    assert cached.cost_usd == pytest.approx(0.1)


def test_stream_without_final_usage_keeps_only_the_input_it_reported():
    from garuda_evals_agent.providers.anthropic_response import parse_usage
    from garuda_evals_agent.providers.anthropic_stream import StreamAccumulator

    accumulator = StreamAccumulator()
    start = {"usage": {"input_tokens": 500, "cache_read_input_tokens": 0, "output_tokens": 1}}
    for event in [
        {"type": "message_start", "message": {"id": "m", "content": [], **start}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "hi"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}},
        {"type": "message_stop"},
    ]:
        accumulator.feed(event)
    usage = parse_usage(accumulator.result()["usage"], reservation=9000)
    assert not usage.reported and usage.reservation == 9000
    assert (usage.input_tokens, usage.output_tokens) == (500, 0)


def test_more_cached_than_prompt_tokens_never_gives_negative_input() -> None:
    from garuda_evals_agent.providers.openai_stream import parse_usage

    usage = parse_usage(
        {
            "prompt_tokens": 50,
            "completion_tokens": 9,
            "prompt_tokens_details": {"cached_tokens": 80},
        },
        reservation=0,
    )
    assert usage.input_tokens == 0 and usage.cache_read_tokens == 80 and usage.reported
