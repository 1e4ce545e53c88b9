"""A Reply as the OpenAI Responses API: streamed events, or one response object."""

from __future__ import annotations

import json
from typing import Any

from garuda_evals_agent.testing.script import Reply, Text, Think, Tokens, Use


def usage_json(tokens: Tokens) -> dict[str, Any]:
    """Responses usage: input includes cached tokens; reasoning is part of output."""
    return {
        "input_tokens": tokens.input + tokens.cache_read,
        "input_tokens_details": {"cached_tokens": tokens.cache_read},
        "output_tokens": tokens.output,
        "output_tokens_details": {"reasoning_tokens": tokens.reasoning},
        "total_tokens": tokens.input + tokens.cache_read + tokens.output,
    }


def output_items(reply: Reply) -> list[dict[str, Any]]:
    """The output items: messages, reasoning summaries and function calls."""
    items: list[dict[str, Any]] = []
    for number, block in enumerate(reply.blocks):
        if isinstance(block, Text):
            items.append(
                {
                    "type": "message",
                    "id": f"msg_{number}",
                    "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": block.text, "annotations": []}],
                }
            )
        elif isinstance(block, Think):
            items.append(
                {
                    "type": "reasoning",
                    "id": f"rs_{number}",
                    "summary": [{"type": "summary_text", "text": block.thinking}],
                }
            )
        elif isinstance(block, Use):
            items.append(
                {
                    "type": "function_call",
                    "id": f"fc_{number}",
                    "call_id": block.id,
                    "name": block.name,
                    "arguments": json.dumps(block.input),
                    "status": "completed",
                }
            )
    return items


def response_json(reply: Reply, model: str, response_id: str) -> dict[str, Any]:
    """The whole response object (non-streamed, and inside ``response.completed``)."""
    response: dict[str, Any] = {
        "id": response_id,
        "object": "response",
        "created_at": 0,
        "status": "incomplete" if reply.cut else "completed",
        "model": model,
        "output": output_items(reply),
    }
    if reply.usage is not None:
        response["usage"] = usage_json(reply.usage)
    return response


def sse_events(reply: Reply, model: str, response_id: str) -> list[str]:
    """``response.created``, each ``response.output_item.done``, then ``response.completed``."""
    created = {"id": response_id, "object": "response", "status": "in_progress", "model": model}
    events = [_event("response.created", {"response": created})]
    for index, item in enumerate(output_items(reply)):
        events.append(_event("response.output_item.added", {"output_index": index, "item": item}))
        events.append(_event("response.output_item.done", {"output_index": index, "item": item}))
    events.append(
        _event("response.completed", {"response": response_json(reply, model, response_id)})
    )
    return events


def _event(kind: str, data: dict[str, Any]) -> str:
    return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n"
