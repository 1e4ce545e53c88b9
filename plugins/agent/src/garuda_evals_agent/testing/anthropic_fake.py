"""A Reply as Anthropic Messages: SSE events, or one Message object (batches)."""

from __future__ import annotations

import json
from typing import Any

from garuda_evals_agent.testing.script import Reply, Text, Think, Tokens, Use


def usage_json(tokens: Tokens, output: int) -> dict[str, int]:
    """Anthropic usage: input excludes cache reads and writes."""
    return {
        "input_tokens": tokens.input,
        "cache_creation_input_tokens": tokens.cache_write,
        "cache_read_input_tokens": tokens.cache_read,
        "output_tokens": output,
    }


def _block_json(block: Text | Think | Use) -> dict[str, Any]:
    if isinstance(block, Text):
        return {"type": "text", "text": block.text}
    if isinstance(block, Think):
        return {"type": "thinking", "thinking": block.thinking, "signature": block.signature}
    return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}


def message_json(reply: Reply, model: str, message_id: str) -> dict[str, Any]:
    """The non-streamed Message (a batch result)."""
    message: dict[str, Any] = {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [_block_json(b) for b in reply.blocks],
        "stop_reason": reply.stop_reason(),
        "stop_sequence": None,
    }
    if reply.usage is not None:
        message["usage"] = usage_json(reply.usage, reply.usage.output)
    return message


def sse_events(reply: Reply, model: str, message_id: str) -> list[str]:
    """The SSE events of a streamed reply, each ``event: ...\\ndata: ...\\n\\n``."""
    start: dict[str, Any] = {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
    }
    if reply.usage is not None:
        start["usage"] = usage_json(reply.usage, 1)
    events = [_event("message_start", {"message": start})]
    for index, block in enumerate(reply.blocks):
        last = index == len(reply.blocks) - 1
        events.extend(_block_events(index, block, cut=reply.cut and last))
    delta: dict[str, Any] = {"delta": {"stop_reason": reply.stop_reason(), "stop_sequence": None}}
    if reply.usage is not None:
        delta["usage"] = {"output_tokens": reply.usage.output}
    events.append(_event("message_delta", delta))
    events.append(_event("message_stop", {}))
    return events


def _block_events(index: int, block: Text | Think | Use, *, cut: bool) -> list[str]:
    if isinstance(block, Text):
        first = {"type": "text", "text": ""}
        deltas = [{"type": "text_delta", "text": block.text}]
    elif isinstance(block, Think):
        first = {"type": "thinking", "thinking": "", "signature": ""}
        deltas = [{"type": "thinking_delta", "thinking": block.thinking}]
        if not cut:
            deltas.append({"type": "signature_delta", "signature": block.signature})
    else:
        first = {"type": "tool_use", "id": block.id, "name": block.name, "input": {}}
        raw = json.dumps(block.input)
        half = len(raw) // 2
        pieces = [raw[:half]] if cut else [raw[:half], raw[half:]]
        deltas = [{"type": "input_json_delta", "partial_json": piece} for piece in pieces]
    events = [_event("content_block_start", {"index": index, "content_block": first})]
    events += [_event("content_block_delta", {"index": index, "delta": d}) for d in deltas]
    if not cut:
        events.append(_event("content_block_stop", {"index": index}))
    return events


def _event(kind: str, data: dict[str, Any]) -> str:
    return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n"


def error_json(error_type: str, message: str) -> dict[str, Any]:
    """Anthropic's error body."""
    return {"type": "error", "error": {"type": error_type, "message": message}}
