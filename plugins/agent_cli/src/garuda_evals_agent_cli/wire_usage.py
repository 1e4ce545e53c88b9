"""Usage read from a model call's response as it went over the wire, for four protocols.

Anthropic Messages (streamed or not), OpenAI chat completions, the OpenAI Responses API and
Gemini generateContent / streamGenerateContent. The counts come out as the built-in agent
keeps them: input without cache reads and writes, reasoning as part of output.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from garuda_evals_agent.messages import CallUsage, estimate_tokens

Protocol = Literal["anthropic", "openai-chat", "openai-responses", "gemini"]
Read = tuple[CallUsage, list[str]]
"""A call's usage and the notes reading it raised (a clamped count)."""
CLAMPED = "a response reported more cached tokens than prompt tokens; input counted as 0"


def protocol_of(method: str, path: str) -> Protocol | None:
    """The protocol of a model call at ``path``, or None when the request is not one."""
    if method != "POST":
        return None
    path = path.split("?")[0].rstrip("/")
    if path.endswith("/messages"):
        return "anthropic"
    if path.endswith("/chat/completions"):
        return "openai-chat"
    if path.endswith("/responses"):
        return "openai-responses"
    if path.endswith((":generateContent", ":streamGenerateContent")):
        return "gemini"
    return None


FREE_CALLS = ("/count_tokens", ":countTokens")
"""Model endpoints that only count a prompt's tokens: they cost nothing and are forwarded."""
READ_ONLY = frozenset({"GET", "HEAD"})


def forwarded(method: str, path: str) -> bool:
    """Whether the proxy may send this request on: a model call it meters, a free token
    count, or a read. Anything else (a batch, the legacy completions API, embeddings, a
    file upload, a delete) could spend money or change the account unseen, and is refused."""
    if method in READ_ONLY or protocol_of(method, path) is not None:
        return True
    return method == "POST" and path.split("?")[0].rstrip("/").endswith(FREE_CALLS)


def model_of(protocol: Protocol, path: str, request: Any) -> str:
    """The model the call asked for: the body's ``model``, or Gemini's path segment."""
    if protocol == "gemini":
        return path.partition("?")[0].rpartition("/")[2].partition(":")[0]
    return str(request.get("model") or "") if isinstance(request, dict) else ""


def events_of(body: bytes) -> list[dict[str, Any]]:
    """The JSON objects of a response: one body, a JSON array, or SSE ``data:`` lines."""
    text = body.decode("utf-8", errors="replace").strip()
    if not text:
        return []
    if text[0] in "{[":
        try:
            loaded = json.loads(text)
        except json.JSONDecodeError:
            loaded = None
        if isinstance(loaded, dict):
            return [loaded]
        if isinstance(loaded, list):
            return [item for item in loaded if isinstance(item, dict)]
    found: list[dict[str, Any]] = []
    for line in text.splitlines():
        if not line.startswith("data:"):
            continue
        try:
            item = json.loads(line[5:])
        except json.JSONDecodeError:  # ``[DONE]``, an empty or a cut line
            continue
        if isinstance(item, dict):
            found.append(item)
    return found


def read_usage(protocol: Protocol, body: bytes, *, whole: bool = True) -> Read:
    """The usage of one response and its notes; without a complete report it is unreported.

    ``whole`` is false when the upstream connection broke before the response ended: what
    was read is kept (a minimum), never taken for a complete report.
    """
    events = events_of(body)
    if protocol == "anthropic":
        call, notes = _anthropic(events)
    elif protocol == "openai-chat":
        call, notes = _openai_chat(events)
    elif protocol == "openai-responses":
        call, notes = _responses(events)
    else:
        call, notes = _gemini(events)
    call.reported = call.reported and whole
    return call, notes


def _ints(source: Any, *keys: str) -> bool:
    return isinstance(source, dict) and all(isinstance(source.get(k), int) for k in keys)


def _uncached(prompt: int, cached: int, notes: list[str]) -> int:
    if cached > prompt:
        notes.append(CLAMPED)
        return 0
    return prompt - cached


def _anthropic(events: list[dict[str, Any]]) -> Read:
    """A whole Message, or a stream that ended with ``message_stop`` after a final usage.

    A stream cut after ``message_start``, or with an ``error`` event (an overload), is
    unreported: ``message_start`` has the input counts (kept, a minimum) and a placeholder
    output count (dropped), as the built-in agent reads it.
    """
    usage: dict[str, Any] = {}
    streamed = stopped = final = failed = False
    for event in events:
        kind = event.get("type")
        if kind == "message_start":
            streamed = True
            usage.update((event.get("message") or {}).get("usage") or {})
        elif kind in ("message_delta", "message"):
            delta = {k: v for k, v in (event.get("usage") or {}).items() if v is not None}
            final = final or isinstance(delta.get("output_tokens"), int)
            usage.update(delta)
        elif kind == "message_stop":
            stopped = True
        elif kind == "error":
            failed = True
    if streamed and not final:
        usage.pop("output_tokens", None)
    whole = not failed and (stopped or not streamed)
    if not whole or not _ints(usage, "input_tokens", "output_tokens"):
        return _partial(usage), []
    read = CallUsage(
        input_tokens=usage["input_tokens"],
        cache_read_tokens=usage.get("cache_read_input_tokens") or 0,
        cache_write_tokens=usage.get("cache_creation_input_tokens") or 0,
        output_tokens=usage["output_tokens"],
    )
    return read, []


def _partial(usage: dict[str, Any]) -> CallUsage:
    """An unreported Anthropic call with the counts it did report (a minimum)."""

    def count(key: str) -> int:
        value = usage.get(key)
        return value if isinstance(value, int) else 0

    return CallUsage(
        input_tokens=count("input_tokens"),
        cache_read_tokens=count("cache_read_input_tokens"),
        cache_write_tokens=count("cache_creation_input_tokens"),
        output_tokens=count("output_tokens"),
        reported=False,
    )


def _openai_chat(events: list[dict[str, Any]]) -> Read:
    usage = next((e["usage"] for e in reversed(events) if isinstance(e.get("usage"), dict)), None)
    if not _ints(usage, "prompt_tokens", "completion_tokens"):
        return CallUsage(reported=False), []
    assert isinstance(usage, dict)
    notes: list[str] = []
    cached = (usage.get("prompt_tokens_details") or {}).get("cached_tokens") or 0
    reasoning = (usage.get("completion_tokens_details") or {}).get("reasoning_tokens") or 0
    return (
        CallUsage(
            input_tokens=_uncached(usage["prompt_tokens"], cached, notes),
            cache_read_tokens=cached,
            output_tokens=usage["completion_tokens"],
            reasoning_tokens=reasoning,
        ),
        notes,
    )


def _responses(events: list[dict[str, Any]]) -> Read:
    usage = None
    for event in events:
        response = event.get("response") if "response" in event else event
        if isinstance(response, dict) and isinstance(response.get("usage"), dict):
            usage = response["usage"]
    if not _ints(usage, "input_tokens", "output_tokens"):
        return CallUsage(reported=False), []
    assert isinstance(usage, dict)
    notes: list[str] = []
    cached = (usage.get("input_tokens_details") or {}).get("cached_tokens") or 0
    reasoning = (usage.get("output_tokens_details") or {}).get("reasoning_tokens") or 0
    return (
        CallUsage(
            input_tokens=_uncached(usage["input_tokens"], cached, notes),
            cache_read_tokens=cached,
            output_tokens=usage["output_tokens"],
            reasoning_tokens=reasoning,
        ),
        notes,
    )


def _gemini(events: list[dict[str, Any]]) -> Read:
    usage = None
    for event in events:
        if isinstance(event.get("usageMetadata"), dict):
            usage = event["usageMetadata"]
    if not _ints(usage, "promptTokenCount"):
        return CallUsage(reported=False), []
    assert isinstance(usage, dict)
    notes: list[str] = []
    cached = usage.get("cachedContentTokenCount") or 0
    thoughts = usage.get("thoughtsTokenCount") or 0
    return (
        CallUsage(
            input_tokens=_uncached(usage["promptTokenCount"], cached, notes),
            cache_read_tokens=cached,
            output_tokens=(usage.get("candidatesTokenCount") or 0) + thoughts,
            reasoning_tokens=thoughts,
        ),
        notes,
    )


OUTPUT_LIMITS: dict[Protocol, tuple[str, ...]] = {
    "anthropic": ("max_tokens",),
    "openai-chat": ("max_completion_tokens", "max_tokens"),
    "openai-responses": ("max_output_tokens",),
    "gemini": ("maxOutputTokens",),
}
UNSTATED_OUTPUT = 32_000
"""The output a call without its own limit is reserved (Claude Code's own max_tokens)."""


def max_output_of(protocol: Protocol, request: Any) -> int | None:
    """The output limit the request states, or None when it states none."""
    if not isinstance(request, dict):
        return None
    if protocol == "gemini":
        config = request.get("generationConfig")
        request = config if isinstance(config, dict) else {}
    for name in OUTPUT_LIMITS[protocol]:
        value = request.get(name)
        if isinstance(value, int) and value > 0:
            return value
    return None


def reservation_of(protocol: Protocol, request: Any, body: bytes) -> int:
    """What an unreported call stands for, as the built-in agent reserves it: the output
    limit (``UNSTATED_OUTPUT`` when the request states none) plus the estimated input."""
    limit = max_output_of(protocol, request)
    text = body.decode("utf-8", errors="replace")
    return (UNSTATED_OUTPUT if limit is None else limit) + estimate_tokens(text)
