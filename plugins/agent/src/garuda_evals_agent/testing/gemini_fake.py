"""A Reply as Gemini generateContent: one response, or streamed chunks (SSE or a JSON array)."""

from __future__ import annotations

import json
from typing import Any

from garuda_evals_agent.testing.script import Reply, Text, Think, Tokens, Use


def usage_json(tokens: Tokens) -> dict[str, int]:
    """Gemini's usageMetadata: the prompt count includes cached content; thinking is counted
    apart from the answer (``thoughtsTokenCount``, only when there was some)."""
    prompt = tokens.input + tokens.cache_read
    usage = {
        "promptTokenCount": prompt,
        "cachedContentTokenCount": tokens.cache_read,
        "candidatesTokenCount": tokens.output - tokens.reasoning,
        "totalTokenCount": prompt + tokens.output,
    }
    if tokens.reasoning:
        usage["thoughtsTokenCount"] = tokens.reasoning
    return usage


def _part(block: Text | Think | Use) -> dict[str, Any]:
    if isinstance(block, Text):
        return {"text": block.text}
    if isinstance(block, Think):
        return {"text": block.thinking, "thought": True}
    return {"functionCall": {"name": block.name, "args": block.input}}


def response_json(reply: Reply, model: str, *, usage: bool = True) -> dict[str, Any]:
    """One GenerateContentResponse."""
    candidate = {
        "content": {"role": "model", "parts": [_part(b) for b in reply.blocks]},
        "finishReason": "MAX_TOKENS" if reply.cut else "STOP",
        "index": 0,
    }
    body: dict[str, Any] = {"candidates": [candidate], "modelVersion": model}
    if usage and reply.usage is not None:
        body["usageMetadata"] = usage_json(reply.usage)
    return body


def stream_chunks(reply: Reply, model: str) -> list[dict[str, Any]]:
    """One chunk per part; the usage comes with the last one."""
    chunks = [response_json(Reply([block], usage=None), model) for block in reply.blocks]
    last = response_json(Reply([], usage=reply.usage), model)
    return [*chunks, last]


def sse_events(reply: Reply, model: str) -> list[str]:
    """``?alt=sse``: ``data: {chunk}`` lines."""
    return [f"data: {json.dumps(chunk)}\n\n" for chunk in stream_chunks(reply, model)]
