"""The neutral conversation as an Anthropic Messages request, with cache breakpoints."""

from __future__ import annotations

from typing import Any

from garuda_evals_agent.messages import Message, Part, TextPart, ThinkingPart, ToolCall, ToolSpec

PROVIDER = "anthropic"
CACHE = {"type": "ephemeral"}
THINKING_TYPES = ("thinking", "redacted_thinking")


def system_blocks(system: str) -> list[dict[str, Any]]:
    """The system prompt as one cached text block."""
    return [{"type": "text", "text": system, "cache_control": CACHE}]


def tools_param(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    """Tool definitions; the last one carries the cache breakpoint."""
    wire: list[dict[str, Any]] = [
        {"name": t.name, "description": t.description, "input_schema": t.input_schema}
        for t in tools
    ]
    if wire:
        wire[-1]["cache_control"] = CACHE
    return wire


def _block(part: Part, keep_thinking: bool) -> dict[str, Any] | None:
    if isinstance(part, TextPart):
        return {"type": "text", "text": part.text} if part.text else None
    if isinstance(part, ThinkingPart):
        keep = keep_thinking and part.provider == PROVIDER and _signed(part.raw)
        return dict(part.raw) if keep else None
    if isinstance(part, ToolCall):
        return {"type": "tool_use", "id": part.id, "name": part.name, "input": part.arguments}
    return {
        "type": "tool_result",
        "tool_use_id": part.call_id,
        "content": part.content,
        "is_error": part.is_error,
    }


def _signed(raw: dict[str, Any]) -> bool:
    return raw.get("type") == "redacted_thinking" or bool(raw.get("signature"))


def messages_param(messages: list[Message], keep_thinking: bool) -> list[dict[str, Any]]:
    """Messages; the last block of the last message carries the cache breakpoint.

    With ``keep_thinking`` off, thinking blocks are dropped from every assistant message but
    the newest: the API needs that one while its tool calls are being answered.
    """
    wire: list[dict[str, Any]] = []
    newest = max((i for i, m in enumerate(messages) if m.role == "assistant"), default=-1)
    for index, message in enumerate(messages):
        keep = keep_thinking or index == newest
        blocks = [b for b in (_block(p, keep) for p in message.parts) if b is not None]
        if not blocks:
            continue
        if wire and wire[-1]["role"] == message.role:
            wire[-1]["content"].extend(blocks)
        else:
            wire.append({"role": message.role, "content": blocks})
    if wire and wire[-1]["content"][-1]["type"] not in THINKING_TYPES:
        wire[-1]["content"][-1] = {**wire[-1]["content"][-1], "cache_control": CACHE}
    return wire
