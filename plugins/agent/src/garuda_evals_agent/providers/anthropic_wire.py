"""The neutral conversation in Anthropic Messages form, and back (streamed or not)."""

from __future__ import annotations

import json
from typing import Any

from garuda_evals_agent.messages import (
    CallUsage,
    Message,
    Part,
    StopReason,
    TextPart,
    ThinkingPart,
    ToolCall,
    ToolSpec,
)

PROVIDER = "anthropic"
CACHE = {"type": "ephemeral"}
_THINKING_TYPES = ("thinking", "redacted_thinking")


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
    """Messages; the last block of the last message carries the cache breakpoint."""
    wire: list[dict[str, Any]] = []
    for message in messages:
        blocks = [b for b in (_block(p, keep_thinking) for p in message.parts) if b is not None]
        if not blocks:
            continue
        if wire and wire[-1]["role"] == message.role:
            wire[-1]["content"].extend(blocks)
        else:
            wire.append({"role": message.role, "content": blocks})
    if wire and wire[-1]["content"][-1]["type"] not in _THINKING_TYPES:
        wire[-1]["content"][-1] = {**wire[-1]["content"][-1], "cache_control": CACHE}
    return wire


class StreamAccumulator:
    """Builds the final Message dict from raw stream events, as the non-streamed API returns it."""

    def __init__(self) -> None:
        self.message: dict[str, Any] = {}
        self.blocks: dict[int, dict[str, Any]] = {}
        self.partial_json: dict[int, str] = {}
        self.closed: set[int] = set()
        self.finished = False
        self.started = False
        self.final_usage = False

    def feed(self, event: dict[str, Any]) -> None:
        """Apply one event (``message_start`` ... ``message_stop``)."""
        kind = event.get("type")
        if kind == "message_start":
            self.started = True
            self.message = dict(event.get("message") or {})
        elif kind == "content_block_start":
            self.blocks[event["index"]] = dict(event.get("content_block") or {})
        elif kind == "content_block_delta":
            self._delta(event["index"], event.get("delta") or {})
        elif kind == "content_block_stop":
            self.closed.add(event["index"])
        elif kind == "message_delta":
            self.message.update(
                {k: v for k, v in (event.get("delta") or {}).items() if v is not None}
            )
            usage = event.get("usage")
            if usage:
                self.final_usage = isinstance(usage.get("output_tokens"), int)
                merged = dict(self.message.get("usage") or {})
                merged.update({k: v for k, v in usage.items() if v is not None})
                self.message["usage"] = merged
        elif kind == "message_stop":
            self.finished = True

    def _delta(self, index: int, delta: dict[str, Any]) -> None:
        block = self.blocks.setdefault(index, {})
        kind = delta.get("type")
        if kind == "text_delta":
            block["text"] = block.get("text", "") + delta.get("text", "")
        elif kind == "input_json_delta":
            self.partial_json[index] = self.partial_json.get(index, "") + delta.get(
                "partial_json", ""
            )
        elif kind == "thinking_delta":
            block["thinking"] = block.get("thinking", "") + delta.get("thinking", "")
        elif kind == "signature_delta":
            block["signature"] = block.get("signature", "") + delta.get("signature", "")

    def result(self) -> dict[str, Any]:
        """The Message dict; a tool_use cut short is marked ``"_incomplete": true``."""
        content = []
        for index in sorted(self.blocks):
            block = dict(self.blocks[index])
            if block.get("type") == "tool_use":
                raw = self.partial_json.get(index, "")
                try:
                    block["input"] = json.loads(raw) if raw else block.get("input") or {}
                except json.JSONDecodeError:
                    block["input"] = {}
                    block["_incomplete"] = True
                if index not in self.closed:
                    block["_incomplete"] = True
            content.append(block)
        message = {**self.message, "content": content}
        if not self.final_usage and isinstance(message.get("usage"), dict):
            # message_start's output count is a placeholder; without the final one it is unknown
            message["usage"] = {k: v for k, v in message["usage"].items() if k != "output_tokens"}
        return message


def parse_message(message: dict[str, Any]) -> tuple[Message, StopReason, str]:
    """The assistant Message, the normalized stop reason and the provider's own."""
    parts: list[Part] = []
    for block in message.get("content") or []:
        kind = block.get("type")
        if kind == "text":
            parts.append(TextPart(block.get("text", "")))
        elif kind in _THINKING_TYPES:
            raw = {k: v for k, v in block.items() if not k.startswith("_")}
            parts.append(ThinkingPart(raw, PROVIDER))
        elif kind == "tool_use":
            arguments = block.get("input") if isinstance(block.get("input"), dict) else {}
            complete = not block.get("_incomplete")
            parts.append(ToolCall(block.get("id", ""), block.get("name", ""), arguments, complete))
    raw_stop = str(message.get("stop_reason") or "")
    stop: StopReason
    if raw_stop == "max_tokens":
        stop = "max_tokens"
    elif raw_stop == "refusal":
        stop = "refusal"
    elif any(isinstance(p, ToolCall) for p in parts):
        stop = "tool_use"
    elif raw_stop in ("end_turn", "stop_sequence"):
        stop = "end"
    else:
        stop = "other"
    return Message("assistant", parts), stop, raw_stop


def parse_usage(usage: Any, reservation: int) -> CallUsage:
    """Anthropic's counts (input excludes cache); a missing or partial report is unreported."""
    if not isinstance(usage, dict) or not _counts(usage, "input_tokens", "output_tokens"):
        reported = {}
        if isinstance(usage, dict):
            reported = {k: v for k, v in usage.items() if isinstance(v, int)}
        return CallUsage(
            input_tokens=reported.get("input_tokens", 0),
            cache_read_tokens=reported.get("cache_read_input_tokens", 0),
            cache_write_tokens=reported.get("cache_creation_input_tokens", 0),
            output_tokens=reported.get("output_tokens", 0),
            reported=False,
            reservation=reservation,
        )
    return CallUsage(
        input_tokens=usage["input_tokens"],
        cache_read_tokens=usage.get("cache_read_input_tokens") or 0,
        cache_write_tokens=usage.get("cache_creation_input_tokens") or 0,
        output_tokens=usage["output_tokens"],
        reservation=reservation,
    )


def _counts(usage: dict[str, Any], *keys: str) -> bool:
    return all(isinstance(usage.get(key), int) for key in keys)
