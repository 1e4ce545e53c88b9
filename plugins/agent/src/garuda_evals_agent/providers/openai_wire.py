"""The neutral conversation as an OpenAI chat completion request."""

from __future__ import annotations

import json
from typing import Any

from garuda_evals_agent.messages import Message, TextPart, ToolResult, ToolSpec

PROVIDER = "openai"


def tools_param(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    """Function tools."""
    return [
        {
            "type": "function",
            "function": {
                "name": t.name,
                "description": t.description,
                "parameters": t.input_schema,
            },
        }
        for t in tools
    ]


def messages_param(system: str, messages: list[Message]) -> list[dict[str, Any]]:
    """System, user, assistant (with tool_calls) and tool messages. Reasoning is not sent back."""
    wire: list[dict[str, Any]] = [{"role": "system", "content": system}]
    for message in messages:
        texts = [p.text for p in message.parts if isinstance(p, TextPart) and p.text]
        if message.role == "assistant":
            entry: dict[str, Any] = {"role": "assistant", "content": "\n".join(texts) or None}
            calls = message.tool_calls()
            if calls:
                entry["tool_calls"] = [
                    {
                        "id": c.id,
                        "type": "function",
                        "function": {"name": c.name, "arguments": json.dumps(c.arguments)},
                    }
                    for c in calls
                ]
            wire.append(entry)
            continue
        for part in message.parts:
            if isinstance(part, ToolResult):
                wire.append({"role": "tool", "tool_call_id": part.call_id, "content": part.content})
        if texts:
            wire.append({"role": "user", "content": "\n".join(texts)})
    return wire
