"""The metering proxy between real SDK clients and the fake server, per wire protocol."""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anthropic
import openai
import pytest

from garuda_evals_agent.testing import FakeModelServer, Fault, Reply, Text, Tokens
from garuda_evals_agent_cli.proxy import Budget, ProxySession
from garuda_evals_agent_cli.upstream import PLACEHOLDER_KEY, upstream_for
from garuda_evals_agent_cli.wire_usage import CLAMPED

REAL = "real-key-0123"
RATE = 15e-6
"""The reserve rate the factory sets for claude-sonnet-4-5 (its output price per token)."""
ASK = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 50,
    "messages": [{"role": "user", "content": "hi"}],
}

Start = Callable[..., tuple[FakeModelServer, ProxySession, str]]


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[Start]:
    """``proxied(provider, script, max_cost=None)``: fake server, a session, the proxy's URL."""
    opened: list[tuple[FakeModelServer, ProxySession]] = []

    def start(
        provider: str, script: list[Any], max_cost: float | None = None, prices: str = ""
    ) -> tuple[FakeModelServer, ProxySession, str]:
        server = FakeModelServer(script).__enter__()
        base = f"{server.url}/v1" if provider == "openai" else server.url
        var = {"anthropic": "ANTHROPIC", "openai": "OPENAI", "gemini": "GOOGLE_GEMINI"}[provider]
        key_var = "GEMINI_API_KEY" if provider == "gemini" else f"{var}_API_KEY"
        environ = {f"{var}_BASE_URL": base, key_var: REAL, "GARUDA_PRICE_PROVIDER": prices}
        upstream = upstream_for(provider, environ)
        budget = Budget(max_cost, reserve_usd_per_token=RATE if max_cost else 0.0)
        session = ProxySession(upstream, budget, tmp_path / "transcript.jsonl")
        url = f"http://127.0.0.1:{session.listen_tcp()}{upstream.base_path}"
        opened.append((server, session))
        return server, session, url

    yield start
    for server, session in opened:
        session.close()
        server.__exit__(None, None, None)


def lines(tmp_path: Path, kind: str) -> list[dict[str, Any]]:
    rows = [json.loads(x) for x in (tmp_path / "transcript.jsonl").read_text().splitlines()]
    return [row for row in rows if row["type"] == kind]


def header(request: dict[str, Any], name: str) -> str:
    return {k.lower(): v for k, v in request["headers"].items()}.get(name, "")


def key_sent(request: dict[str, Any]) -> str:
    """The key as the SDK sent it (newer Anthropic SDKs send a Bearer token)."""
    return header(request, "x-api-key") or header(request, "authorization").removeprefix("Bearer ")


def test_anthropic_streamed_and_plain_are_metered_with_the_real_key(proxied, tmp_path):
    server, session, url = proxied(
        "anthropic",
        [Reply([Text("a")], usage=Tokens(10, 5, 300, 40)), Reply([Text("b")], Tokens(7, 3))],
    )
    client = anthropic.Anthropic(api_key=PLACEHOLDER_KEY, base_url=url, max_retries=0)
    ask = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 50,
        "messages": [{"role": "user", "content": "hi"}],
    }
    with client.messages.stream(**ask) as stream:
        assert stream.get_final_message().content[0].text == "a"
    assert client.messages.create(**ask).content[0].text == "b"
    session.close_listeners()
    usage = session.usage()
    assert (usage.input_tokens, usage.output_tokens) == (17, 8)
    assert (usage.cache_read_tokens, usage.cache_write_tokens) == (300, 40)
    assert usage.tokens_known and usage.cost_usd > 0 and not usage.cost_incomplete
    assert session.steps == 2
    assert [key_sent(r) for r in server.model_calls()] == [REAL, REAL]
    responses = lines(tmp_path, "proxy_response")
    assert [r["step"] for r in responses] == [1, 2] and responses[0]["usage"]["cacheRead"] == 300
    assert lines(tmp_path, "proxy_request")[0]["body"]["messages"][0]["content"] == "hi"
    assert REAL not in (tmp_path / "transcript.jsonl").read_text()


def test_openai_chat_stream_is_metered_and_cached_input_kept_apart(proxied):
    server, session, url = proxied("openai", [Reply([Text("ok")], usage=Tokens(100, 9, 400))])
    client = openai.OpenAI(api_key=PLACEHOLDER_KEY, base_url=url, max_retries=0)
    stream = client.chat.completions.create(
        model="gpt-4o",
        messages=[{"role": "user", "content": "hi"}],
        stream=True,
        stream_options={"include_usage": True},
    )
    assert "".join(c.choices[0].delta.content or "" for c in stream if c.choices) == "ok"
    session.close_listeners()
    usage = session.usage()
    assert (usage.input_tokens, usage.cache_read_tokens, usage.output_tokens) == (100, 400, 9)
    assert header(server.model_calls()[0], "authorization") == f"Bearer {REAL}"


def test_openai_chat_whole_completion_is_metered(proxied):
    """aider (litellm, --no-stream) asks for whole completions."""
    _server, session, url = proxied("openai", [Reply([Text("whole")], usage=Tokens(70, 8, 30))])
    client = openai.OpenAI(api_key=PLACEHOLDER_KEY, base_url=url, max_retries=0)
    answer = client.chat.completions.create(
        model="gpt-4o", messages=[{"role": "user", "content": "hi"}]
    )
    assert answer.choices[0].message.content == "whole"
    session.close_listeners()
    usage = session.usage()
    assert (usage.input_tokens, usage.cache_read_tokens, usage.output_tokens) == (70, 30, 8)
    assert session.steps == 1 and usage.tokens_known


def test_responses_api_streamed_and_plain(proxied):
    _server, session, url = proxied(
        "openai", [Reply([Text("x")], usage=Tokens(50, 6, 200)), Reply([Text("y")], Tokens(5, 2))]
    )
    client = openai.OpenAI(api_key=PLACEHOLDER_KEY, base_url=url, max_retries=0)
    with client.responses.stream(model="gpt-5", input="hi") as stream:
        assert stream.get_final_response().output_text == "x"
    assert client.responses.create(model="gpt-5", input="hi").output_text == "y"
    session.close_listeners()
    usage = session.usage()
    assert (usage.input_tokens, usage.cache_read_tokens, usage.output_tokens) == (55, 200, 8)
    assert session.steps == 2 and usage.tokens_known


@pytest.mark.parametrize(
    "route", [":generateContent", ":streamGenerateContent?alt=sse", ":streamGenerateContent"]
)
def test_gemini_plain_and_streamed(proxied, route):
    server, session, url = proxied("gemini", [Reply([Text("g")], usage=Tokens(30, 4, 100))])
    request = urllib.request.Request(
        f"{url}/v1beta/models/gemini-2.5-flash{route}",
        data=json.dumps({"contents": [{"parts": [{"text": "hi"}]}]}).encode(),
        headers={"x-goog-api-key": PLACEHOLDER_KEY, "content-type": "application/json"},
    )
    assert b'"g"' in urllib.request.urlopen(request).read()
    session.close_listeners()
    usage = session.usage()
    assert (usage.input_tokens, usage.cache_read_tokens, usage.output_tokens) == (30, 100, 4)
    assert header(server.model_calls()[0], "x-goog-api-key") == REAL
    assert usage.cost_usd > 0


def test_unreported_usage_stays_unknown(proxied):
    _server, session, url = proxied("anthropic", [Reply([Text("a")], usage=None)])
    client = anthropic.Anthropic(api_key=PLACEHOLDER_KEY, base_url=url, max_retries=0)
    client.messages.create(
        model="claude-sonnet-4-5", max_tokens=5, messages=[{"role": "user", "content": "hi"}]
    )
    session.close_listeners()
    usage = session.usage()
    assert session.steps == 1 and not usage.tokens_known and usage.cost_incomplete


def test_more_cached_than_prompt_tokens_is_clamped_with_a_note(proxied):
    _server, session, url = proxied("openai", [Reply([Text("ok")], usage=Tokens(-50, 9, 100))])
    client = openai.OpenAI(api_key=PLACEHOLDER_KEY, base_url=url, max_retries=0)
    client.responses.create(model="gpt-5", input="hi")
    session.close_listeners()
    usage = session.usage()
    assert usage.input_tokens == 0 and usage.cache_read_tokens == 100
    assert CLAMPED in usage.notes


def test_past_the_spend_cap_calls_are_refused(proxied):
    script = [Reply([Text("a")], usage=Tokens(100000, 10)), Reply([Text("b")])]
    server, session, url = proxied("anthropic", script, max_cost=0.01)
    client = anthropic.Anthropic(api_key=PLACEHOLDER_KEY, base_url=url, max_retries=0)
    ask = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 5,
        "messages": [{"role": "user", "content": "hi"}],
    }
    client.messages.create(**ask)
    with pytest.raises(anthropic.BadRequestError, match="spend cap"):
        client.messages.create(**ask)
    # Cheat: the same prompt as a message batch, which the meter would not see.
    with pytest.raises(anthropic.NotFoundError, match="not a metered call"):
        client.messages.batches.create(requests=[{"custom_id": "a", "params": ask}])
    session.close_listeners()
    assert session.refused == 1 and session.steps == 1 and len(server.model_calls()) == 1
    assert len(server.requests) == 1


def test_a_client_that_hangs_up_early_is_still_metered(proxied):
    _server, session, url = proxied("openai", [Reply([Text("x")], usage=Tokens(50, 6))])
    port = int(url.split(":")[2].split("/")[0])
    body = json.dumps({"model": "gpt-5", "input": "hi", "stream": True}).encode()
    with socket.create_connection(("127.0.0.1", port)) as client:
        client.sendall(
            b"POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        assert client.recv(12) == b"HTTP/1.1 200"  # the response began: now hang up hard
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    session.close_listeners()
    assert session.steps == 1 and session.usage().output_tokens == 6


@pytest.mark.parametrize(
    ("provider", "path"),
    [
        ("anthropic", "/v1/messages/batches"),
        ("anthropic", "/v1/complete"),
        ("openai", "/completions"),
        ("openai", "/batches"),
        ("gemini", "/v1beta/models/gemini-2.5-flash:batchGenerateContent"),
    ],
)
def test_a_call_the_proxy_cannot_meter_never_reaches_the_api(proxied, tmp_path, provider, path):
    """Cheat: spend tokens where the meter does not look (a batch, the legacy completions
    API). Forwarded, the run's tokens and cost would say less than was spent."""
    server, session, url = proxied(provider, [Reply([Text("a")], usage=Tokens(1000, 10))])
    request = urllib.request.Request(
        f"{url}{path}",
        data=json.dumps({"model": "claude-sonnet-4-5", "prompt": "hi"}).encode(),
        headers={"x-api-key": PLACEHOLDER_KEY, "content-type": "application/json"},
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request)
    session.close_listeners()
    assert refused.value.code == 404 and b"not a metered call" in refused.value.read()
    assert server.requests == [] and session.steps == 0
    assert lines(tmp_path, "proxy_refused")[0]["reason"] == "not metered"


def test_token_counts_and_reads_are_forwarded(proxied):
    server, session, url = proxied("anthropic", [])
    client = anthropic.Anthropic(api_key=PLACEHOLDER_KEY, base_url=url, max_retries=0)
    with pytest.raises(anthropic.NotFoundError):  # the fake server does not count tokens
        client.messages.count_tokens(
            model="claude-sonnet-4-5", messages=[{"role": "user", "content": "hi"}]
        )
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(f"{url}/v1/models")
    session.close_listeners()
    assert [r["path"] for r in server.requests] == ["/v1/messages/count_tokens", "/v1/models"]
    assert key_sent(server.requests[0]) == REAL and session.steps == 0


def test_the_real_key_goes_only_where_a_key_belongs(proxied, tmp_path):
    """Cheat: put the placeholder in a path or another header. An API that names an unknown
    URL in its 404 (OpenAI's "Invalid URL (GET /v1/...)", the fake server's too) would hand
    the agent the real key, and the proxy's transcript would keep it."""
    server, session, url = proxied("openai", [])
    request = urllib.request.Request(
        f"{url}/{PLACEHOLDER_KEY}?key={PLACEHOLDER_KEY}",
        headers={"x-echo": PLACEHOLDER_KEY, "authorization": f"Bearer {PLACEHOLDER_KEY}"},
    )
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(request)
    session.close_listeners()
    assert REAL not in answer.value.read().decode()
    sent = server.requests[0]
    assert sent["path"] == f"/v1/{PLACEHOLDER_KEY}" and header(sent, "x-echo") == PLACEHOLDER_KEY
    assert header(sent, "authorization") == f"Bearer {REAL}"
    assert REAL not in (tmp_path / "transcript.jsonl").read_text()


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_an_upstream_that_echoes_the_url_never_hands_back_the_real_key(proxied, tmp_path, provider):
    """Cheat: ask for an unknown URL with ``key=<placeholder>``; OpenAI answers 404 naming the
    URL. Only Gemini takes its key in the URL: for any other provider the parameter stays
    the placeholder, and the agent learns nothing it did not have."""
    server, session, url = proxied(provider, [])
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(f"{url}/files?purpose=x&key={PLACEHOLDER_KEY}")
    session.close_listeners()
    echoed = answer.value.read().decode()
    assert f"key={PLACEHOLDER_KEY}" in echoed and REAL not in echoed
    assert server.requests[0]["target"].endswith(f"/files?purpose=x&key={PLACEHOLDER_KEY}")
    assert REAL not in (tmp_path / "transcript.jsonl").read_text()


def test_gemini_key_parameter_travels_in_its_header_not_the_url(proxied, tmp_path):
    """Gemini's ``key=`` is the one key a URL carries: it leaves the URL and goes in
    ``x-goog-api-key``, so a 404 naming the URL shows no key either."""
    server, session, url = proxied("gemini", [Reply([Text("g")], usage=Tokens(30, 4))])
    request = urllib.request.Request(
        f"{url}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key={PLACEHOLDER_KEY}",
        data=json.dumps({"contents": [{"parts": [{"text": "hi"}]}]}).encode(),
        headers={"content-type": "application/json"},
    )
    assert b'"g"' in urllib.request.urlopen(request).read()
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(f"{url}/v1beta/nothing?key={PLACEHOLDER_KEY}")
    session.close_listeners()
    call, missing = server.requests
    assert call["target"] == "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
    assert header(call, "x-goog-api-key") == REAL and session.usage().output_tokens == 4
    assert missing["target"] == "/v1beta/nothing" and header(missing, "x-goog-api-key") == REAL
    assert REAL not in answer.value.read().decode()
    assert REAL not in (tmp_path / "transcript.jsonl").read_text()


@pytest.mark.parametrize(
    ("fault", "seen"),
    [(Fault(drop=True), "RemoteProtocolError"), (Fault(in_stream=True), "APIStatusError")],
    ids=["cut-after-start", "overloaded"],
)
def test_a_broken_anthropic_stream_has_unknown_tokens(proxied, tmp_path, fault, seen):
    """A stream cut after ``message_start``, or ended by an ``overloaded_error`` event, was
    recorded as a complete call (message_start's placeholder output count taken as the
    answer). As the built-in agent reads it: tokens unknown, the input it reported a
    minimum, the call's reservation counted."""
    server, session, url = proxied("anthropic", [fault])
    client = anthropic.Anthropic(api_key=PLACEHOLDER_KEY, base_url=url, max_retries=0)
    with pytest.raises(Exception) as broke, client.messages.stream(**ASK) as stream:
        stream.get_final_message()
    assert type(broke.value).__name__ == seen  # the client saw the break too
    session.close_listeners()
    usage = session.usage()
    assert session.steps == 1 and len(server.model_calls()) == 1
    assert not usage.tokens_known and usage.cost_incomplete and usage.unreported_requests == 1
    assert (usage.input_tokens, usage.output_tokens) == (100, 0)
    assert usage.unreported_tokens > ASK["max_tokens"] and usage.cost_usd > 0
    (response,) = lines(tmp_path, "proxy_response")
    assert response["usage"]["reported"] is False


def test_without_usage_reports_the_cap_counts_reservations(proxied):
    """``--max-cost`` counted only priced usage: against an API that reports none, every call
    went through. Each now counts its reservation at the model's dearest token."""
    script = [Reply([Text("a")], usage=None), Reply([Text("b")], usage=None)]
    server, session, url = proxied("anthropic", script, max_cost=0.0005)
    client = anthropic.Anthropic(api_key=PLACEHOLDER_KEY, base_url=url, max_retries=0)
    client.messages.create(**ASK)
    with pytest.raises(anthropic.BadRequestError, match="spend cap"):
        client.messages.create(**ASK)
    session.close_listeners()
    usage = session.usage()
    assert len(server.model_calls()) == 1 and session.refused == 1
    assert usage.unreported_tokens > ASK["max_tokens"]
    assert session.budget.spent_usd == pytest.approx(usage.unreported_tokens * RATE)


def test_under_a_cap_a_call_on_a_model_without_price_is_refused(proxied, tmp_path):
    """A CLI may call another model than ``-m``'s; one the cap cannot price would spend
    unseen by it. Refused, as a run whose model has no price is at start."""
    script = [Reply([Text("a")], usage=Tokens(10, 5))]
    server, session, url = proxied("openai", script, max_cost=1.0, prices="openai")
    client = openai.OpenAI(api_key=PLACEHOLDER_KEY, base_url=url, max_retries=0)
    with pytest.raises(openai.BadRequestError, match="no known price"):
        client.responses.create(model="no-such-model-x", input="hi")
    assert client.responses.create(model="gpt-5", input="hi").output_text == "a"
    session.close_listeners()
    assert [call["body"]["model"] for call in server.model_calls()] == ["gpt-5"]
    assert session.steps == 1 and session.budget.spent_usd > 0
    assert any("no-such-model-x" in note for note in session.usage().notes)
    assert lines(tmp_path, "proxy_refused")[0]["reason"] == "no known price"


def test_a_call_still_running_when_the_task_ends_is_not_zero(proxied, monkeypatch):
    """Cheat: start a long generation in the background and exit at once. The proxy waits
    ``DRAIN_S`` for calls in flight; one still running after that was left out of the row's
    usage (spent, but neither its tokens nor its cost reported)."""
    import garuda_evals_agent_cli.proxy as proxy_module

    monkeypatch.setattr(proxy_module, "DRAIN_S", 0.3)
    server, session, url = proxied("anthropic", [Reply([Text("slow")], usage=Tokens(900, 50))])
    release = threading.Event()
    original = server.next_item
    monkeypatch.setattr(server, "next_item", lambda: release.wait(10) and original())
    ask = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 5,
        "messages": [{"role": "user", "content": "hi"}],
    }
    client = anthropic.Anthropic(api_key=PLACEHOLDER_KEY, base_url=url, max_retries=0)
    call = threading.Thread(target=lambda: client.messages.create(**ask), daemon=True)
    call.start()
    while not server.requests:
        time.sleep(0.01)
    session.close_listeners()
    usage = session.usage()
    release.set()
    call.join(10)
    assert session.steps == 1 and not usage.tokens_known and usage.cost_incomplete
    assert any("still running" in note for note in usage.notes), usage.notes
    assert session.steps == 1 and session.usage().unreported_requests == 1  # not counted again
