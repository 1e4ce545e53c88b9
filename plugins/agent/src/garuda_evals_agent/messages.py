"""The provider-neutral conversation: what the loop keeps and what providers translate."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

StopReason = Literal["tool_use", "end", "max_tokens", "refusal", "other"]


@dataclass
class TextPart:
    """Text written by the model or the user."""

    text: str


@dataclass
class ThinkingPart:
    """A reasoning block exactly as the provider sent it (signature included), kept opaque."""

    raw: dict[str, Any]
    provider: str


@dataclass
class ToolCall:
    """A tool call. ``complete`` is false when the output limit cut its arguments short."""

    id: str
    name: str
    arguments: dict[str, Any]
    complete: bool = True


@dataclass
class ToolResult:
    """The answer to one tool call."""

    call_id: str
    content: str
    is_error: bool = False


Part = TextPart | ThinkingPart | ToolCall | ToolResult


@dataclass
class Message:
    """One turn of the conversation."""

    role: Literal["user", "assistant"]
    parts: list[Part]

    def tool_calls(self) -> list[ToolCall]:
        """The tool calls in this message, in order."""
        return [part for part in self.parts if isinstance(part, ToolCall)]


@dataclass(frozen=True)
class ToolSpec:
    """A tool as the model sees it: name, description and JSON schema of its input."""

    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass
class ModelRequest:
    """One model call."""

    system: str
    messages: list[Message]
    tools: list[ToolSpec]
    max_tokens: int
    step: int


@dataclass
class CallUsage:
    """Usage of one model call as the provider reported it, kept apart.

    ``input_tokens`` excludes cache reads and writes. ``reported`` is false when the response
    carried no complete usage report: ``reservation`` (max_tokens plus the estimated input)
    then stands for the unknown count. ``cost_usd`` is None when no price is known.
    """

    input_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    reported: bool = True
    reservation: int = 0
    cost_usd: float | None = None
    price_note: str = ""


@dataclass
class ModelResponse:
    """What one model call returned, with the bodies that went over the wire."""

    message: Message
    stop_reason: StopReason
    provider_stop_reason: str
    usage: CallUsage
    wire_request: dict[str, Any]
    wire_response: dict[str, Any]
    price_factor: float = 1.0
    extra: dict[str, Any] = field(default_factory=dict)


def estimate_tokens(text: str) -> int:
    """A rough token count (four characters a token) for reservations only, never for usage."""
    return len(text) // 4 + 1
