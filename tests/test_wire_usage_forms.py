"""How the agent-CLI proxy reads a model call off the wire (``wire_usage``): which requests
are model calls, which may pass at all, the model asked for, and the usage of each
protocol's answer, streamed or not. Answers come from the fake model server over real HTTP;
the odd ones (a usage report cut short, more cached than prompt tokens, stray lines) are
written here byte by byte."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from garuda_evals_agent.messages import CallUsage
from garuda_evals_agent.testing import FakeModelServer, Reply, Text, Tokens
from garuda_evals_agent_cli.wire_usage import (
    CLAMPED,
    Protocol,
    events_of,
    forwarded,
    model_of,
    protocol_of,
    read_usage,
)

TOKENS = Tokens(input=40, output=7, cache_read=300, cache_write=20)


@pytest.mark.parametrize(
    ("method", "path", "protocol"),
    [
        ("POST", "/v1/messages", "anthropic"),
        ("POST", "/v1/messages/?beta=true", "anthropic"),
        ("POST", "/v1/chat/completions", "openai-chat"),
        ("POST", "/openai/v1/chat/completions/", "openai-chat"),
        ("POST", "/v1/responses", "openai-responses"),
        ("POST", "/v1beta/models/gemini-2.5-pro:generateContent", "gemini"),
        ("POST", "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", "gemini"),
        ("GET", "/v1/messages", None),
        ("PUT", "/v1/chat/completions", None),
        ("POST", "/v1/messages/count_tokens", None),
        ("POST", "/v1beta/models/gemini-2.5-pro:countTokens", None),
        ("POST", "/v1/completions", None),
        ("POST", "/v1/messages?next=/responses", "anthropic"),
    ],
)
def test_model_calls_are_known_by_method_and_path(
    method: str, path: str, protocol: str | None
) -> None:
    assert protocol_of(method, path) == protocol


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("GET", "/v1/models", True),
        ("HEAD", "/v1/batches", True),
        ("POST", "/v1/messages", True),
        ("POST", "/v1/messages/count_tokens", True),
        ("POST", "/v1/messages/count_tokens/?x=1", True),
        ("POST", "/v1beta/models/gemini-2.5-pro:countTokens", True),
        ("POST", "/v1/messages/batches", False),
        ("POST", "/v1/completions", False),
        ("POST", "/v1/embeddings", False),
        ("POST", "/v1/files?purpose=/count_tokens", False),
        ("DELETE", "/v1/files/f1", False),
        ("PUT", "/v1/messages/count_tokens", False),
        ("PATCH", "/v1/messages", False),
    ],
)
def test_only_metered_calls_free_counts_and_reads_pass(
    method: str, path: str, allowed: bool
) -> None:
    assert forwarded(method, path) is allowed


def test_the_model_comes_from_the_body_or_geminis_path() -> None:
    path = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
    assert model_of("gemini", path, {"model": "ignored"}) == "gemini-2.5-flash"
    assert model_of("gemini", "/v1beta/models/gemini-x:generateContent", None) == "gemini-x"
    assert model_of("gemini", "gemini-y:generateContent?alt=sse", None) == "gemini-y"
    assert model_of("anthropic", "/v1/messages", {"model": "claude-haiku-4-5"}) == (
        "claude-haiku-4-5"
    )
    assert model_of("openai-chat", "/v1/chat/completions", {"model": None}) == ""
    assert model_of("openai-chat", "/v1/chat/completions", {}) == ""
    assert model_of("openai-responses", "/v1/responses", ["not", "a", "body"]) == ""


def test_events_are_read_from_a_body_an_array_or_sse_lines() -> None:
    assert events_of(b"") == [] and events_of(b"  \n ") == []
    assert events_of(b' {"a": 1} ') == [{"a": 1}]
    assert events_of(b'[{"a": 1}, 2, "x", {"b": 2}]') == [{"a": 1}, {"b": 2}]
    sse = (
        b"event: message_start\n"
        b'data: {"a": 1}\n\n'
        b"data:\n\n"
        b"data: not json\n\n"
        b"data: [1, 2]\n\n"
        b': a comment\ndata:{"b": 2}\n\n'
        b"data: [DONE]\n\n"
    )
    assert events_of(sse) == [{"a": 1}, {"b": 2}]
    assert events_of(b'{"cut": ') == []
    assert events_of(b'[{"cut": ') == []
    assert events_of(b'{"a": 1}\ndata: {"b": 2}') == [{"b": 2}]
    assert events_of('data: {"t": "é"}\n'.encode() + b"data: \xff\n") == [{"t": "é"}]


def _post(url: str, body: dict[str, Any]) -> bytes:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        data: bytes = response.read()
    return data


ROUTES: list[tuple[Protocol, str, dict[str, Any]]] = [
    ("anthropic", "/v1/messages", {"model": "claude-haiku-4-5", "stream": True}),
    ("openai-chat", "/v1/chat/completions", {"model": "gpt-4o"}),
    ("openai-chat", "/v1/chat/completions", {"model": "gpt-4o", "stream": True}),
    ("openai-responses", "/v1/responses", {"model": "gpt-5"}),
    ("openai-responses", "/v1/responses", {"model": "gpt-5", "stream": True}),
    ("gemini", "/v1beta/models/gemini-2.5-flash:generateContent", {}),
    ("gemini", "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", {}),
    ("gemini", "/v1beta/models/gemini-2.5-flash:streamGenerateContent", {}),
]


def _read(protocol: Protocol, route: str, body: dict[str, Any], usage: Tokens | None) -> Any:
    with FakeModelServer([Reply([Text("ok")], usage=usage)]) as server:
        raw = _post(server.url + route, {"messages": [], **body})
    return read_usage(protocol, raw)


@pytest.mark.parametrize(("protocol", "route", "body"), ROUTES)
def test_each_protocols_usage_is_read_with_cache_kept_apart(
    protocol: Protocol, route: str, body: dict[str, Any]
) -> None:
    usage, notes = _read(protocol, route, body, TOKENS)
    assert notes == [] and usage.reported
    writes = TOKENS.cache_write if protocol == "anthropic" else 0  # only Anthropic reports them
    assert (usage.input_tokens, usage.cache_read_tokens, usage.cache_write_tokens) == (
        40,
        300,
        writes,
    )
    assert (usage.output_tokens, usage.reasoning_tokens) == (7, 0)


@pytest.mark.parametrize(("protocol", "route", "body"), ROUTES)
def test_an_answer_without_usage_is_unreported(
    protocol: Protocol, route: str, body: dict[str, Any]
) -> None:
    usage, notes = _read(protocol, route, body, None)
    assert notes == [] and usage == CallUsage(reported=False)


def _sse(*events: dict[str, Any]) -> bytes:
    return "".join(f"data: {json.dumps(event)}\n\n" for event in events).encode()


def test_anthropic_keeps_the_start_counts_a_delta_leaves_out() -> None:
    start = {
        "type": "message_start",
        "message": {"usage": {"input_tokens": 5, "output_tokens": 1, "cache_read_input_tokens": 9}},
    }
    delta = {"type": "message_delta", "usage": {"input_tokens": None, "output_tokens": 30}}
    ping, stop = {"type": "ping", "usage": {}}, {"type": "message_stop"}
    usage, notes = read_usage("anthropic", _sse(start, delta, ping, stop))
    assert notes == [] and usage.reported
    assert (usage.input_tokens, usage.output_tokens, usage.cache_read_tokens) == (5, 30, 9)
    assert usage.cache_write_tokens == 0
    whole = {"type": "message", "usage": {"input_tokens": 2, "output_tokens": 3}}
    usage, _ = read_usage("anthropic", json.dumps(whole).encode())
    assert (usage.input_tokens, usage.output_tokens, usage.reported) == (2, 3, True)
    assert (usage.cache_read_tokens, usage.cache_write_tokens) == (0, 0)
    nulls = {"cache_read_input_tokens": None, "cache_creation_input_tokens": None}
    whole["usage"].update(nulls)
    usage, _ = read_usage("anthropic", json.dumps(whole).encode())
    assert (usage.cache_read_tokens, usage.cache_write_tokens, usage.reported) == (0, 0, True)
    cut = {"type": "message_start", "message": {"usage": {"input_tokens": 5}}}
    # cut after its start: unreported, the input count kept as a minimum
    assert read_usage("anthropic", _sse(cut)) == (CallUsage(input_tokens=5, reported=False), [])
    text = {
        "type": "message_start",
        "message": {"usage": {"input_tokens": "5", "output_tokens": 1}},
    }
    assert read_usage("anthropic", _sse(text)) == (CallUsage(reported=False), [])


def test_openai_reads_the_last_usage_and_needs_both_counts() -> None:
    first = {"usage": {"prompt_tokens": 1, "completion_tokens": 1}}
    last = {"usage": {"prompt_tokens": 50, "completion_tokens": 6}}
    usage, _ = read_usage("openai-chat", _sse(first, {"choices": []}, last, {"usage": None}))
    assert (usage.input_tokens, usage.output_tokens, usage.cache_read_tokens) == (50, 6, 0)
    missing = {"usage": {"prompt_tokens": 50}}
    assert read_usage("openai-chat", _sse(missing)) == (CallUsage(reported=False), [])
    assert read_usage("openai-chat", _sse({"choices": []})) == (CallUsage(reported=False), [])


def test_responses_reads_the_last_response_or_a_bare_usage() -> None:
    early = {"type": "response.created", "response": {"usage": None}}
    done = {
        "type": "response.completed",
        "response": {"usage": {"input_tokens": 70, "output_tokens": 8}},
    }
    usage, _ = read_usage("openai-responses", _sse(early, done, {"type": "x", "response": 5}))
    assert (usage.input_tokens, usage.output_tokens, usage.reported) == (70, 8, True)
    bare = {"usage": {"input_tokens": 4, "output_tokens": 2}}
    usage, _ = read_usage("openai-responses", json.dumps(bare).encode())
    assert (usage.input_tokens, usage.output_tokens) == (4, 2)
    half = {"response": {"usage": {"input_tokens": 4}}}
    assert read_usage("openai-responses", _sse(half)) == (CallUsage(reported=False), [])


def test_gemini_reads_the_last_metadata_and_needs_the_prompt_count() -> None:
    first = {"usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1}}
    last = {"usageMetadata": {"promptTokenCount": 90, "candidatesTokenCount": 4}}
    usage, _ = read_usage("gemini", _sse(first, last, {"usageMetadata": "x"}))
    assert (usage.input_tokens, usage.output_tokens, usage.reasoning_tokens) == (90, 4, 0)
    no_answer = {"usageMetadata": {"promptTokenCount": 90}}
    usage, _ = read_usage("gemini", _sse(no_answer))
    assert (usage.input_tokens, usage.output_tokens, usage.reported) == (90, 0, True)
    empty = {"usageMetadata": {"candidatesTokenCount": 4}}
    assert read_usage("gemini", _sse(empty)) == (CallUsage(reported=False), [])


@pytest.mark.parametrize(
    ("protocol", "body"),
    [
        (
            "openai-chat",
            {"usage": {"prompt_tokens": 50, "completion_tokens": 9,
                       "prompt_tokens_details": {"cached_tokens": 80}}},
        ),
        (
            "openai-responses",
            {"usage": {"input_tokens": 50, "output_tokens": 9,
                       "input_tokens_details": {"cached_tokens": 80}}},
        ),
        (
            "gemini",
            {"usageMetadata": {"promptTokenCount": 50, "candidatesTokenCount": 9,
                               "cachedContentTokenCount": 80}},
        ),
    ],
)  # fmt: skip
def test_more_cached_than_prompt_tokens_is_input_zero_with_a_note(
    protocol: Protocol, body: dict[str, Any]
) -> None:
    usage, notes = read_usage(protocol, json.dumps(body).encode())
    assert notes == [CLAMPED] and usage.reported
    assert (usage.input_tokens, usage.cache_read_tokens, usage.output_tokens) == (0, 80, 9)


@pytest.mark.parametrize(
    ("protocol", "body"),
    [
        (
            "openai-chat",
            {"usage": {"prompt_tokens": 80, "completion_tokens": 9,
                       "prompt_tokens_details": {"cached_tokens": 80}}},
        ),
        (
            "openai-responses",
            {"usage": {"input_tokens": 80, "output_tokens": 9,
                       "input_tokens_details": {"cached_tokens": 80}}},
        ),
        (
            "gemini",
            {"usageMetadata": {"promptTokenCount": 80, "candidatesTokenCount": 9,
                               "cachedContentTokenCount": 80}},
        ),
    ],
)  # fmt: skip
def test_a_prompt_read_wholly_from_the_cache_is_no_clamp(
    protocol: Protocol, body: dict[str, Any]
) -> None:
    usage, notes = read_usage(protocol, json.dumps(body).encode())
    assert notes == [] and (usage.input_tokens, usage.cache_read_tokens) == (0, 80)
