"""An Anthropic Message (streamed or from a batch) back into the neutral form, with usage."""

from __future__ import annotations

from typing import Any

from garuda_evals_agent.messages import (
    CallUsage,
    Message,
    Part,
    StopReason,
    TextPart,
    ThinkingPart,
    ToolCall,
)
from garuda_evals_agent.providers.anthropic_wire import PROVIDER, THINKING_TYPES


def parse_message(message: dict[str, Any]) -> tuple[Message, StopReason, str]:
    """The assistant Message, the normalized stop reason and the provider's own."""
    parts: list[Part] = []
    for block in message.get("content") or []:
        kind = block.get("type")
        if kind == "text":
            parts.append(TextPart(block.get("text", "")))
        elif kind in THINKING_TYPES:
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
