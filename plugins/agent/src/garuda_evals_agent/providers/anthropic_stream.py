"""Anthropic's streamed events assembled into the Message a non-streamed call returns."""

from __future__ import annotations

import json
from typing import Any


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
