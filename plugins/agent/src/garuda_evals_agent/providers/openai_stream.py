"""Streamed chat completion chunks back into the neutral form, with usage."""

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
)
from garuda_evals_agent.providers.openai_wire import PROVIDER


class ChunkAccumulator:
    """Builds one completion (message, tool calls, finish reason, usage) from stream chunks."""

    def __init__(self) -> None:
        self.content = ""
        self.reasoning = ""
        self.calls: dict[int, dict[str, Any]] = {}
        self.finish_reason: str | None = None
        self.usage: dict[str, Any] | None = None
        self.model = ""
        self.id = ""
        self.started = False
        self.done = False

    def feed(self, chunk: dict[str, Any]) -> None:
        """Apply one ``chat.completion.chunk``."""
        self.started = True
        self.id = chunk.get("id") or self.id
        self.model = chunk.get("model") or self.model
        if chunk.get("usage"):
            self.usage = chunk["usage"]
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            self.content += delta.get("content") or ""
            self.reasoning += delta.get("reasoning_content") or delta.get("reasoning") or ""
            for call in delta.get("tool_calls") or []:
                slot = self.calls.setdefault(
                    call.get("index", 0), {"id": "", "name": "", "args": ""}
                )
                slot["id"] = call.get("id") or slot["id"]
                function = call.get("function") or {}
                slot["name"] += function.get("name") or ""
                slot["args"] += function.get("arguments") or ""
            if choice.get("finish_reason"):
                self.finish_reason = choice["finish_reason"]

    def result(self) -> dict[str, Any]:
        """The completion as one dict (the transcript's response)."""
        return {
            "id": self.id,
            "model": self.model,
            "content": self.content,
            "reasoning": self.reasoning,
            "tool_calls": [self.calls[i] for i in sorted(self.calls)],
            "finish_reason": self.finish_reason,
            "usage": self.usage,
        }


def parse_result(result: dict[str, Any]) -> tuple[Message, StopReason, str]:
    """The assistant Message, the normalized stop reason and the provider's own."""
    parts: list[Part] = []
    if result.get("reasoning"):
        parts.append(ThinkingPart({"reasoning": result["reasoning"]}, PROVIDER))
    if result.get("content"):
        parts.append(TextPart(result["content"]))
    for number, call in enumerate(result.get("tool_calls") or []):
        try:
            arguments = json.loads(call["args"]) if call["args"].strip() else {}
            complete = isinstance(arguments, dict)
        except json.JSONDecodeError:
            arguments, complete = {}, False
        call_id = call["id"] or f"call_{number}"
        parts.append(ToolCall(call_id, call["name"], arguments if complete else {}, complete))
    raw = str(result.get("finish_reason") or "")
    stop: StopReason
    if raw == "length":
        stop = "max_tokens"
    elif raw == "content_filter":
        stop = "refusal"
    elif any(isinstance(p, ToolCall) for p in parts):
        stop = "tool_use"
    elif raw == "stop":
        stop = "end"
    else:
        stop = "other"
    return Message("assistant", parts), stop, raw


def parse_usage(usage: Any, reservation: int) -> CallUsage:
    """OpenAI's prompt_tokens include cached tokens: subtract them to keep input uncached
    (never below 0: some servers report more cached than prompt tokens)."""
    if not isinstance(usage, dict) or not all(
        isinstance(usage.get(k), int) for k in ("prompt_tokens", "completion_tokens")
    ):
        return CallUsage(reported=False, reservation=reservation)
    cached = (usage.get("prompt_tokens_details") or {}).get("cached_tokens") or 0
    reasoning = (usage.get("completion_tokens_details") or {}).get("reasoning_tokens") or 0
    return CallUsage(
        input_tokens=max(0, usage["prompt_tokens"] - cached),
        cache_read_tokens=cached,
        output_tokens=usage["completion_tokens"],
        reasoning_tokens=reasoning,
        reservation=reservation,
    )
