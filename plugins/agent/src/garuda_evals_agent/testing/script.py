"""What a fake server answers, one item per model call: a Reply or a Fault."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

_ids = itertools.count(1)


@dataclass(frozen=True)
class Text:
    """A text block."""

    text: str


@dataclass(frozen=True)
class Think:
    """A thinking block (Anthropic) or reasoning content (OpenAI-compatible)."""

    thinking: str
    signature: str = "sig-fake"


@dataclass(frozen=True)
class Use:
    """A tool call."""

    name: str
    input: dict[str, Any]
    id: str = field(default_factory=lambda: f"toolu_{next(_ids):04d}")


Block = Text | Think | Use


@dataclass(frozen=True)
class Tokens:
    """Usage as the provider reports it (input excludes cache, as Anthropic counts).

    ``reasoning`` is the part of ``output`` the model spent thinking: OpenAI reports it
    inside its output count, Gemini apart from it (``thoughtsTokenCount``)."""

    input: int = 100
    output: int = 20
    cache_read: int = 0
    cache_write: int = 0
    reasoning: int = 0


@dataclass(frozen=True)
class Reply:
    """One response. ``usage=None`` sends no usage report; ``cut`` stops at the output limit
    in the middle of the last block (a tool call's JSON is left unfinished); ``delay_s`` is
    how long the server thinks before answering (a slow model; the wait ends when the
    server stops)."""

    blocks: list[Block]
    usage: Tokens | None = field(default_factory=Tokens)
    cut: bool = False
    delay_s: float = 0.0

    def stop_reason(self) -> str:
        """Anthropic's stop reason for this reply."""
        if self.cut:
            return "max_tokens"
        return "tool_use" if any(isinstance(b, Use) for b in self.blocks) else "end_turn"


@dataclass(frozen=True)
class Fault:
    """A failure: an HTTP ``status`` with an error body, ``drop`` the connection mid-stream, or
    (Anthropic) ``in_stream``: an ``error`` event after the stream began, as an overload sends."""

    status: int = 529
    drop: bool = False
    in_stream: bool = False
    error_type: str = "overloaded_error"
