"""A Reply as OpenAI chat completion chunks (streamed) or one completion (not streamed)."""

from __future__ import annotations

import json
from typing import Any

from garuda_evals_agent.testing.script import Reply, Text, Think, Use


def sse_chunks(reply: Reply, model: str, completion_id: str) -> list[str]:
    """``data: {chunk}`` lines, the usage chunk (unless usage is None), then ``[DONE]``."""
    base = {"id": completion_id, "object": "chat.completion.chunk", "created": 0, "model": model}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return f"data: {json.dumps({**base, 'choices': [choice]})}\n\n"

    chunks = [chunk({"role": "assistant", "content": ""})]
    calls = 0
    for number, block in enumerate(reply.blocks):
        cut = reply.cut and number == len(reply.blocks) - 1
        if isinstance(block, Think):
            chunks.append(chunk({"reasoning_content": block.thinking}))
        elif isinstance(block, Text):
            chunks.append(chunk({"content": block.text}))
        elif isinstance(block, Use):
            raw = json.dumps(block.input)
            head = {"index": calls, "id": block.id, "type": "function"}
            chunks.append(
                chunk({"tool_calls": [{**head, "function": {"name": block.name, "arguments": ""}}]})
            )
            pieces = [raw[: len(raw) // 2]] if cut else [raw[: len(raw) // 2], raw[len(raw) // 2 :]]
            for piece in pieces:
                chunks.append(
                    chunk({"tool_calls": [{"index": calls, "function": {"arguments": piece}}]})
                )
            calls += 1
    finish = "length" if reply.cut else ("tool_calls" if calls else "stop")
    chunks.append(chunk({}, finish))
    if reply.usage is not None:
        usage = usage_json(reply)
        chunks.append(f"data: {json.dumps({**base, 'choices': [], 'usage': usage})}\n\n")
    chunks.append("data: [DONE]\n\n")
    return chunks


def completion_json(reply: Reply, model: str, completion_id: str) -> dict[str, Any]:
    """The whole ``chat.completion`` a request without ``stream: true`` gets."""
    text = "".join(block.text for block in reply.blocks if isinstance(block, Text))
    reasoning = "".join(block.thinking for block in reply.blocks if isinstance(block, Think))
    calls = [
        {
            "id": block.id,
            "type": "function",
            "function": {"name": block.name, "arguments": json.dumps(block.input)},
        }
        for block in reply.blocks
        if isinstance(block, Use)
    ]
    message: dict[str, Any] = {"role": "assistant", "content": text or None}
    if reasoning:
        message["reasoning_content"] = reasoning
    if calls:
        message["tool_calls"] = calls
    finish = "length" if reply.cut else ("tool_calls" if calls else "stop")
    completion: dict[str, Any] = {
        "id": completion_id,
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
    }
    if reply.usage is not None:
        completion["usage"] = usage_json(reply)
    return completion


def usage_json(reply: Reply) -> dict[str, Any]:
    """The ``usage`` object of a reply that reports one."""
    assert reply.usage is not None
    tokens = reply.usage
    prompt = tokens.input + tokens.cache_read
    return {
        "prompt_tokens": prompt,
        "completion_tokens": tokens.output,
        "total_tokens": prompt + tokens.output,
        "prompt_tokens_details": {"cached_tokens": tokens.cache_read},
        "completion_tokens_details": {"reasoning_tokens": tokens.reasoning},
    }


def error_json(error_type: str, message: str) -> dict[str, Any]:
    """OpenAI's error body."""
    return {"error": {"type": error_type, "message": message, "code": None}}
