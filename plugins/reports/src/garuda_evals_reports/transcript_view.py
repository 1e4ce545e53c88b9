"""A transcript (JSON lines) as entries a person reads: one per event, each with a one-line head.

Nothing here trusts the file: every text stays plain text (the template escapes it), long
bodies are cut, and a line that is not JSON becomes an entry saying so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BODY_CHARS = 8_000
MAX_ENTRIES = 400


@dataclass(frozen=True)
class Entry:
    """One event: its kind (a CSS class), a one-line head and the text bodies under it."""

    kind: str
    head: str
    bodies: list[tuple[str, str]] = field(default_factory=list)


def _cut(text: str, limit: int = BODY_CHARS) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… ({len(text) - limit} more characters in the transcript file)"


def _json(value: Any) -> str:
    return _cut(json.dumps(value, indent=2, ensure_ascii=False, default=str))


def _message_text(content: Any) -> str:
    """A wire message's content as text: strings kept, blocks as their text or JSON.

    Tool calls and tool results are shown once, as their own events; here they are named only.
    """
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            kind = block.get("type") if isinstance(block, dict) else None
            if kind in _SHOWN_ELSEWHERE:
                parts.append(f"[{_SHOWN_ELSEWHERE[kind]}]")
            elif isinstance(block, dict) and isinstance(block.get("text"), str):
                parts.append(block["text"])
            else:
                parts.append(json.dumps(block, ensure_ascii=False, default=str))
        return "\n".join(parts)
    return json.dumps(content, ensure_ascii=False, default=str)


_SHOWN_ELSEWHERE = {
    "tool_result": "a tool result, shown after its tool call",
    "tool_use": "a tool call, shown as its own event",
    "function_call": "a tool call, shown as its own event",
    "function_call_output": "a tool result, shown after its tool call",
}


def _request_message(message: Any) -> tuple[str, str]:
    """A message a request sends: the model's own earlier words and tool results are named only."""
    if not isinstance(message, dict):
        return "?", _cut(_message_text(message))
    role = str(message.get("role", "?"))
    if role == "assistant":
        return role, "[the model's previous response, shown above]"
    if role == "tool":
        return role, "[a tool result, shown after its tool call]"
    return role, _cut(_message_text(message.get("content")))


_CALL_KEYS = {"input", "arguments", "tool_calls", "function"}


def _texts(value: Any, found: list[str]) -> list[str]:
    """Every string under a ``text`` or ``content`` key, depth first (a response's words).

    Tool calls' arguments are left out: they are shown as the tool call events.
    """
    if isinstance(value, dict):
        for key, item in value.items():
            if key in _CALL_KEYS:
                continue
            if key in ("text", "content") and isinstance(item, str):
                found.append(item)
            else:
                _texts(item, found)
    elif isinstance(value, list):
        for item in value:
            _texts(item, found)
    return found


def _entry(event: dict[str, Any]) -> Entry:
    kind = str(event.get("type", "?"))
    step = f"step {event['step']}: " if "step" in event else ""
    if kind == "start":
        tools = event.get("tools") or []
        return Entry(
            kind,
            f"start: model {event.get('model', '?')}, {len(tools)} tools, "
            f"at most {event.get('maxSteps', '?')} steps",
            [("system prompt", _cut(str(event.get("system", ""))))],
        )
    if kind == "request":
        messages = event.get("messages") or []
        bodies = [_request_message(message) for message in messages]
        return Entry(kind, f"{step}request with {len(messages)} new message(s)", bodies)
    if kind == "response":
        usage = event.get("usage") or {}
        said = "\n".join(_texts(event.get("body"), []))
        # The words are what a reader wants; the raw body only when no words were found.
        bodies = (
            [("assistant", _cut(said))] if said else [("response body", _json(event.get("body")))]
        )
        return Entry(
            kind,
            f"{step}response, stop {event.get('stopReason', '?')}, "
            f"{usage.get('output_tokens', '?')} output tokens",
            bodies,
        )
    if kind == "tool_call":
        return Entry(
            kind, f"tool call {event.get('name', '?')}", [("input", _json(event.get("input")))]
        )
    if kind == "tool_result":
        flags = " (denied)" if event.get("denied") else " (error)" if event.get("isError") else ""
        return Entry(
            kind,
            f"tool result {event.get('name', '?')}{flags}",
            [("output", _cut(_message_text(event.get("content", ""))))],
        )
    if kind in ("retry", "failed"):
        wait = f", retry in {event['waitS']}s" if "waitS" in event else ""
        return Entry(
            kind,
            f"{step}{kind} (attempt {event.get('attempt', '?')}{wait})",
            [("error", _cut(str(event.get("error", ""))))],
        )
    if kind == "notice":
        return Entry(kind, f"notice: {str(event.get('message', ''))[:200]}")
    if kind == "end":
        error = [("error", _cut(str(event["error"])))] if "error" in event else []
        return Entry(
            kind,
            f"end: {event.get('stopReason', '?')} after {event.get('steps', '?')} steps",
            error,
        )
    if kind == "command_result":
        return Entry(
            kind,
            f"command exited {event.get('exitCode', '?')}"
            + (" (timed out)" if event.get("timedOut") else ""),
            [("output", _cut(str(event.get("output", ""))))],
        )
    rest = {k: v for k, v in event.items() if k not in ("t", "type")}
    return Entry(kind, kind, [("event", _json(rest))] if rest else [])


def read_transcript(path: Path) -> list[Entry]:
    """The transcript's entries in order; unreadable lines become entries that say so."""
    entries: list[Entry] = []
    with path.open(encoding="utf-8", errors="replace") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            if len(entries) >= MAX_ENTRIES:
                entries.append(
                    Entry("notice", f"… more events in {path.name} (from line {number})")
                )
                break
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                entries.append(Entry("bad", f"line {number} is not JSON", [("line", _cut(line))]))
                continue
            if not isinstance(event, dict):
                entries.append(
                    Entry("bad", f"line {number} is not an event", [("line", _cut(line))])
                )
                continue
            entries.append(_entry(event))
    return entries
