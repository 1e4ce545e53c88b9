"""Recovery when a response stops at the output limit: keep what is whole, ask to go on."""

from __future__ import annotations

from garuda_evals_agent.messages import Message, TextPart, ThinkingPart, ToolCall

MAX_CONSECUTIVE_CUTOFFS = 3


def nudge(max_tokens: int) -> str:
    """What the model is told after its response was cut off."""
    return (
        f"Your last response was cut off at the output limit ({max_tokens} tokens) and its "
        "unfinished part was dropped. Continue the task in smaller steps: think briefly, and "
        "write large files in several parts (write_file, then edit_file)."
    )


def keep_whole(message: Message) -> tuple[Message, int]:
    """The cut message without unfinished tool calls or unsigned thinking, and the calls dropped."""
    kept = []
    dropped = 0
    for part in message.parts:
        if isinstance(part, ToolCall) and not part.complete:
            dropped += 1
            continue
        if isinstance(part, ThinkingPart) and _unsigned(part):
            continue
        if isinstance(part, TextPart) and not part.text:
            continue
        kept.append(part)
    return Message("assistant", kept), dropped


def append_user(history: list[Message], message: Message) -> None:
    """Append a user message, merging it into the last one when that is a user message too."""
    if history and history[-1].role == "user":
        history[-1].parts.extend(message.parts)
    else:
        history.append(message)


def _unsigned(part: ThinkingPart) -> bool:
    """An Anthropic thinking block cut before its signature cannot be sent back."""
    raw = part.raw
    return (
        part.provider == "anthropic" and raw.get("type") == "thinking" and not raw.get("signature")
    )
