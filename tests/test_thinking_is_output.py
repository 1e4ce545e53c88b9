"""Thinking is output: tokens a model spent reasoning are counted, and priced, as output.

Gemini reports them apart from the answer (``thoughtsTokenCount`` beside
``candidatesTokenCount``); OpenAI counts them inside its output and names the share. The
agent-CLI proxy reads each response as it went over the wire (``wire_usage``); here the
bytes come from the fake model server over real HTTP, in every form a client asks for.
"""

from __future__ import annotations

import json
import urllib.request

import pytest

from garuda_evals_agent.messages import CallUsage
from garuda_evals_agent.pricing import PriceSource, price_call
from garuda_evals_agent.testing import FakeModelServer, Reply, Text, Tokens
from garuda_evals_agent_cli.wire_usage import Protocol, read_usage

THINKING = Tokens(input=300, cache_read=1000, output=2500, reasoning=2400)
GEMINI = "gemini-2.5-flash"


def _post(url: str, body: dict[str, object]) -> bytes:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        data: bytes = response.read()
    return data


def _answer(protocol: Protocol, route: str, body: dict[str, object], tokens: Tokens) -> CallUsage:
    with FakeModelServer([Reply([Text("ok")], usage=tokens)]) as server:
        raw = _post(server.url + route, body)
    usage, notes = read_usage(protocol, raw)
    assert notes == []
    return usage


@pytest.mark.parametrize(
    "route",
    [
        f"/v1beta/models/{GEMINI}:generateContent",
        f"/v1beta/models/{GEMINI}:streamGenerateContent?alt=sse",
        f"/v1beta/models/{GEMINI}:streamGenerateContent",
    ],
)
def test_gemini_thoughts_count_as_output_and_are_priced_as_output(route: str) -> None:
    body = {"contents": [{"parts": [{"text": "hi"}]}]}
    usage = _answer("gemini", route, body, THINKING)
    assert usage.reported
    assert (usage.input_tokens, usage.cache_read_tokens) == (300, 1000)
    assert (usage.output_tokens, usage.reasoning_tokens) == (2500, 2400)
    visible = _answer("gemini", route, body, Tokens(input=300, cache_read=1000, output=2500))
    assert (visible.output_tokens, visible.reasoning_tokens) == (2500, 0)
    google = PriceSource(provider_id="google")
    price_call(usage, GEMINI, google)
    price_call(visible, GEMINI, google)
    assert usage.cost_usd is not None and usage.cost_usd == pytest.approx(visible.cost_usd)


@pytest.mark.parametrize(
    ("protocol", "route", "body"),
    [
        ("openai-chat", "/v1/chat/completions", {"model": "o3", "messages": []}),
        (
            "openai-chat",
            "/v1/chat/completions",
            {"model": "o3", "messages": [], "stream": True},
        ),
        ("openai-responses", "/v1/responses", {"model": "o3", "input": "hi"}),
        ("openai-responses", "/v1/responses", {"model": "o3", "input": "hi", "stream": True}),
    ],
)
def test_openai_reasoning_stays_inside_its_output(
    protocol: Protocol, route: str, body: dict[str, object]
) -> None:
    usage = _answer(protocol, route, body, THINKING)
    assert usage.reported
    assert (usage.input_tokens, usage.cache_read_tokens) == (300, 1000)
    assert (usage.output_tokens, usage.reasoning_tokens) == (2500, 2400)
