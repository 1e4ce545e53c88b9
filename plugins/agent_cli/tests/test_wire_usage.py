"""What the proxy records of a response, read from the bytes the fake servers send (the same
code writes the fake's streams that real SDKs and CLIs parse in the other tests).

These are the focused tests of the ``wire_usage`` mutants (``mutation/run.py``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from garuda_evals_agent.messages import CallUsage
from garuda_evals_agent.testing import Reply, Text, Tokens, Use
from garuda_evals_agent.testing import anthropic_fake as anthropic
from garuda_evals_agent.testing import gemini_fake as gemini
from garuda_evals_agent.testing import openai_fake as chat
from garuda_evals_agent.testing import responses_fake as responses
from garuda_evals_agent_cli.wire_usage import (
    CLAMPED,
    UNSTATED_OUTPUT,
    events_of,
    forwarded,
    max_output_of,
    model_of,
    protocol_of,
    read_usage,
    reservation_of,
)

USED = Tokens(input=120, output=33, cache_read=400, cache_write=50)
REPLY = Reply([Text("ok"), Use("Bash", {"command": "ls"})], usage=USED)


def stream(events: list[str]) -> bytes:
    return "".join(events).encode()


def counts(call: CallUsage) -> tuple[int, int, int, int, int, bool]:
    return (
        call.input_tokens,
        call.cache_read_tokens,
        call.cache_write_tokens,
        call.output_tokens,
        call.reasoning_tokens,
        call.reported,
    )


@pytest.mark.parametrize(
    ("method", "path", "protocol"),
    [
        ("POST", "/v1/messages", "anthropic"),
        ("POST", "/v1/messages/", "anthropic"),
        ("POST", "/v1/messages?beta=true", "anthropic"),
        ("GET", "/v1/messages", None),
        ("POST", "/v1/chat/completions", "openai-chat"),
        ("POST", "/v1/responses", "openai-responses"),
        ("POST", "/v1beta/models/gemini-2.5-flash:generateContent", "gemini"),
        ("POST", "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", "gemini"),
        ("POST", "/v1/messages/batches", None),
        ("POST", "/v1/complete", None),
        ("POST", "/v1/messages/count_tokens", None),
    ],
)
def test_protocol_of_a_request(method: str, path: str, protocol: str | None) -> None:
    assert protocol_of(method, path) == protocol


@pytest.mark.parametrize(
    ("method", "path", "sent"),
    [
        ("GET", "/v1/models", True),
        ("HEAD", "/v1/models", True),
        ("POST", "/v1/messages", True),
        ("POST", "/v1/messages/count_tokens", True),
        ("POST", "/v1/messages/count_tokens/?beta=1", True),
        ("POST", "/v1beta/models/m:countTokens", True),
        ("PUT", "/v1/messages/count_tokens", False),
        ("DELETE", "/v1/files/f", False),
        ("POST", "/v1/messages/batches", False),
        ("POST", "/v1/embeddings", False),
    ],
)
def test_only_metered_calls_counts_and_reads_are_forwarded(
    method: str, path: str, sent: bool
) -> None:
    assert forwarded(method, path) is sent


def test_model_of_a_call() -> None:
    path = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&x=a:b/c"
    assert model_of("gemini", path, {"model": "other"}) == "gemini-2.5-flash"
    assert model_of("gemini", "/v1beta/models/gemini-2.5-pro:generateContent", None) == (
        "gemini-2.5-pro"
    )
    assert model_of("anthropic", "/v1/messages", {"model": "claude-sonnet-4-5"}) == (
        "claude-sonnet-4-5"
    )
    assert model_of("openai-chat", "/v1/chat/completions", {"model": None}) == ""
    assert model_of("openai-responses", "/v1/responses", {}) == ""
    assert model_of("openai-responses", "/v1/responses", "not json") == ""


def test_events_of_each_body_shape() -> None:
    assert events_of(b"") == [] and events_of(b" \n ") == []
    assert events_of(b'{"a": 1}') == [{"a": 1}]
    assert events_of(b'[{"a": 1}, 2, {"b": 2}]') == [{"a": 1}, {"b": 2}]
    sse = (
        b'event: x\ndata: {"a": 1}\n\n'
        b"data: not json\n\n"
        b"data: 7\n\n"
        b"data:\n\n"
        b'data:{"b": 2}\n\n'
        b"data: [DONE]\n\n"
    )
    assert events_of(sse) == [{"a": 1}, {"b": 2}]
    assert events_of(b'{"cut": ') == []
    assert events_of(b'[{"a": 1}\ndata: {"b": 2}') == [{"b": 2}]


def test_anthropic_stream_whole_and_message() -> None:
    events = anthropic.sse_events(REPLY, "claude-sonnet-4-5", "msg_1")
    call, notes = read_usage("anthropic", stream(events))
    assert counts(call) == (120, 400, 50, 33, 0, True) and notes == []
    message = anthropic.message_json(REPLY, "claude-sonnet-4-5", "msg_1")
    call, _ = read_usage("anthropic", json.dumps(message).encode())
    assert counts(call) == (120, 400, 50, 33, 0, True)


def test_anthropic_cache_fields_may_be_absent_or_null() -> None:
    message = {"type": "message", "usage": {"input_tokens": 9, "output_tokens": 4}}
    assert counts(read_usage("anthropic", json.dumps(message).encode())[0]) == (
        9, 0, 0, 4, 0, True,
    )  # fmt: skip
    message["usage"].update(cache_read_input_tokens=None, cache_creation_input_tokens=None)
    assert counts(read_usage("anthropic", json.dumps(message).encode())[0]) == (
        9, 0, 0, 4, 0, True,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("events", "kept"),
    [
        # cut after message_start: the input it reported, not its placeholder output of 1
        (lambda e: e[:1], (120, 400, 50, 0, 0, False)),
        # the final usage came, the message_stop did not
        (lambda e: e[:-1], (120, 400, 50, 33, 0, False)),
        # an overload: message_start, then an error event
        (
            lambda e: [e[0], 'event: error\ndata: {"type": "error", "error": {}}\n\n'],
            (120, 400, 50, 0, 0, False),
        ),
        # an error event after a whole stream still makes the call unreported
        (lambda e: [*e, 'data: {"type": "error"}\n\n'], (120, 400, 50, 33, 0, False)),
    ],
    ids=["cut-after-start", "no-stop", "overloaded", "error-at-end"],
)
def test_a_broken_anthropic_stream_is_unreported_with_what_it_said(
    events: Any, kept: tuple[int, ...]
) -> None:
    whole = anthropic.sse_events(REPLY, "claude-sonnet-4-5", "msg_1")
    call, _ = read_usage("anthropic", stream(events(whole)))
    assert counts(call) == kept


def test_an_anthropic_stream_without_a_final_count_is_unreported() -> None:
    events = anthropic.sse_events(REPLY, "m", "msg_1")
    delta = json.loads(events[-2].split("data: ", 1)[1])
    delta["usage"] = {"output_tokens": None}
    events[-2] = f"event: message_delta\ndata: {json.dumps(delta)}\n\n"
    assert counts(read_usage("anthropic", stream(events))[0]) == (120, 400, 50, 0, 0, False)


def test_anthropic_without_any_usage_is_unreported() -> None:
    reply = Reply([Text("a")], usage=None)
    streamed = stream(anthropic.sse_events(reply, "m", "msg_1"))
    assert counts(read_usage("anthropic", streamed)[0]) == (0, 0, 0, 0, 0, False)
    message = json.dumps(anthropic.message_json(reply, "m", "msg_1")).encode()
    assert counts(read_usage("anthropic", message)[0]) == (0, 0, 0, 0, 0, False)
    partial = {"type": "message", "usage": {"input_tokens": 5, "output_tokens": "7"}}
    assert counts(read_usage("anthropic", json.dumps(partial).encode())[0]) == (
        5, 0, 0, 0, 0, False,
    )  # fmt: skip


def test_a_response_cut_in_transit_is_never_whole() -> None:
    body = stream(chat.sse_chunks(REPLY, "gpt-4.1", "c1"))
    call, _ = read_usage("openai-chat", body, whole=False)
    assert counts(call) == (120, 400, 0, 33, 0, False)
    assert read_usage("openai-chat", body)[0].reported


def test_openai_chat_stream_and_whole_completion() -> None:
    body = stream(chat.sse_chunks(REPLY, "gpt-4.1", "c1"))
    call, notes = read_usage("openai-chat", body)
    assert counts(call) == (120, 400, 0, 33, 0, True) and notes == []
    whole = json.dumps(chat.completion_json(REPLY, "gpt-4.1", "c1")).encode()
    assert counts(read_usage("openai-chat", whole)[0]) == (120, 400, 0, 33, 0, True)
    no_usage = stream(chat.sse_chunks(Reply([Text("a")], usage=None), "gpt-4.1", "c1"))
    assert counts(read_usage("openai-chat", no_usage)[0]) == (0, 0, 0, 0, 0, False)


def test_openai_chat_takes_the_last_usage_and_its_details() -> None:
    first = {"usage": {"prompt_tokens": 1, "completion_tokens": 1}}
    last = {
        "usage": {
            "prompt_tokens": 500,
            "completion_tokens": 60,
            "prompt_tokens_details": {"cached_tokens": 200},
            "completion_tokens_details": {"reasoning_tokens": 25},
        }
    }
    body = f"data: {json.dumps(first)}\n\ndata: {json.dumps(last)}\n\n".encode()
    assert counts(read_usage("openai-chat", body)[0]) == (300, 200, 0, 60, 25, True)
    bare = {"usage": {"prompt_tokens": 5, "completion_tokens": 2, "prompt_tokens_details": None}}
    assert counts(read_usage("openai-chat", json.dumps(bare).encode())[0]) == (
        5, 0, 0, 2, 0, True,
    )  # fmt: skip
    half = {"usage": {"prompt_tokens": 5}}
    assert not read_usage("openai-chat", json.dumps(half).encode())[0].reported


@pytest.mark.parametrize(
    ("prompt", "cached", "uncached", "noted"),
    [(100, 101, 0, True), (100, 100, 0, False), (100, 99, 1, False)],
)
def test_more_cached_than_prompt_is_clamped_with_a_note(
    prompt: int, cached: int, uncached: int, noted: bool
) -> None:
    body = {"usage": {"input_tokens": prompt, "output_tokens": 3}}
    body["usage"]["input_tokens_details"] = {"cached_tokens": cached}
    call, notes = read_usage("openai-responses", json.dumps(body).encode())
    assert (call.input_tokens, call.cache_read_tokens) == (uncached, cached)
    assert notes == ([CLAMPED] if noted else [])
    chat_body = {"usage": {"prompt_tokens": prompt, "completion_tokens": 3}}
    chat_body["usage"]["prompt_tokens_details"] = {"cached_tokens": cached}
    call, notes = read_usage("openai-chat", json.dumps(chat_body).encode())
    assert call.input_tokens == uncached and notes == ([CLAMPED] if noted else [])
    usage = {"promptTokenCount": prompt, "cachedContentTokenCount": cached}
    call, notes = read_usage("gemini", json.dumps({"usageMetadata": usage}).encode())
    assert call.input_tokens == uncached and notes == ([CLAMPED] if noted else [])


def test_responses_stream_and_whole_response() -> None:
    body = stream(responses.sse_events(REPLY, "gpt-5", "r1"))
    assert counts(read_usage("openai-responses", body)[0]) == (120, 400, 0, 33, 0, True)
    whole = json.dumps(responses.response_json(REPLY, "gpt-5", "r1")).encode()
    assert counts(read_usage("openai-responses", whole)[0]) == (120, 400, 0, 33, 0, True)
    no_usage = stream(responses.sse_events(Reply([Text("a")], usage=None), "gpt-5", "r1"))
    assert counts(read_usage("openai-responses", no_usage)[0]) == (0, 0, 0, 0, 0, False)


def test_responses_takes_the_last_usage_and_reasoning() -> None:
    usage = {
        "input_tokens": 90,
        "output_tokens": 40,
        "output_tokens_details": {"reasoning_tokens": 30},
    }
    events = [
        {
            "type": "response.created",
            "response": {"usage": {"input_tokens": 1, "output_tokens": 1}},
        },
        {"type": "response.in_progress", "response": None},
        {"type": "response.completed", "response": {"usage": usage}},
    ]
    body = "".join(f"data: {json.dumps(e)}\n\n" for e in events).encode()
    assert counts(read_usage("openai-responses", body)[0]) == (90, 0, 0, 40, 30, True)
    half = {"usage": {"input_tokens": 5, "output_tokens": None}}
    assert not read_usage("openai-responses", json.dumps(half).encode())[0].reported


def test_gemini_one_response_streams_and_thoughts() -> None:
    whole = json.dumps(gemini.response_json(REPLY, "gemini-2.5-flash")).encode()
    assert counts(read_usage("gemini", whole)[0]) == (120, 400, 0, 33, 0, True)
    array = json.dumps(gemini.stream_chunks(REPLY, "gemini-2.5-flash")).encode()
    assert counts(read_usage("gemini", array)[0]) == (120, 400, 0, 33, 0, True)
    sse = stream(gemini.sse_events(REPLY, "gemini-2.5-flash"))
    assert counts(read_usage("gemini", sse)[0]) == (120, 400, 0, 33, 0, True)
    thinking = {"promptTokenCount": 10, "candidatesTokenCount": 5, "thoughtsTokenCount": 7}
    chunks = [{"usageMetadata": {"promptTokenCount": 1}}, {"usageMetadata": thinking}]
    assert counts(read_usage("gemini", json.dumps(chunks).encode())[0]) == (
        10, 0, 0, 12, 7, True,
    )  # fmt: skip
    prompt_only = {"usageMetadata": {"promptTokenCount": 10}}
    assert counts(read_usage("gemini", json.dumps(prompt_only).encode())[0]) == (
        10, 0, 0, 0, 0, True,
    )  # fmt: skip
    no_prompt = {"usageMetadata": {"candidatesTokenCount": 5}}
    assert not read_usage("gemini", json.dumps(no_prompt).encode())[0].reported
    assert not read_usage("gemini", json.dumps({"candidates": []}).encode())[0].reported


@pytest.mark.parametrize(
    ("protocol", "request_body", "limit"),
    [
        ("anthropic", {"max_tokens": 4096}, 4096),
        ("anthropic", {"max_output_tokens": 4096}, None),
        ("openai-chat", {"max_completion_tokens": 900, "max_tokens": 100}, 900),
        ("openai-chat", {"max_tokens": 100}, 100),
        ("openai-chat", {"max_completion_tokens": 0, "max_tokens": 100}, 100),
        ("openai-chat", {"max_tokens": 1}, 1),
        ("openai-chat", {"max_tokens": -5}, None),
        ("openai-chat", {"max_tokens": "100"}, None),
        ("openai-responses", {"max_output_tokens": 700}, 700),
        ("openai-responses", {"max_tokens": 700}, None),
        ("gemini", {"generationConfig": {"maxOutputTokens": 300}}, 300),
        ("gemini", {"maxOutputTokens": 300}, None),
        ("gemini", {"generationConfig": "300"}, None),
        ("anthropic", "not json", None),
        ("anthropic", None, None),
    ],
)
def test_max_output_of_a_request(protocol: Any, request_body: Any, limit: int | None) -> None:
    assert max_output_of(protocol, request_body) == limit


def test_a_reservation_is_the_output_limit_plus_the_estimated_input() -> None:
    body = json.dumps({"max_tokens": 1000, "messages": "x" * 400}).encode()
    estimate = len(body.decode()) // 4 + 1
    assert reservation_of("anthropic", json.loads(body), body) == 1000 + estimate
    unlimited = json.dumps({"messages": "y" * 40}).encode()
    assert reservation_of("anthropic", json.loads(unlimited), unlimited) == (
        UNSTATED_OUTPUT + len(unlimited) // 4 + 1
    )
    assert UNSTATED_OUTPUT == 32_000
