"""Which Claude models think, and the output limit each gets."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

THINKING_MAX_TOKENS = 16_384
PLAIN_MAX_TOKENS = 8_192
THINKING_BUDGET = 8_192

_FAMILY = re.compile(r"claude-(?:opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d{1,2}))?(?:-|@|$)")


@dataclass(frozen=True)
class ClaudeProfile:
    """max_tokens and the thinking setting sent on every call."""

    max_tokens: int
    thinking: dict[str, Any] | None


def profile(model: str) -> ClaudeProfile:
    """Claude 3.7 and 4+ always think: 16,384 output tokens so thinking cannot eat the answer.

    Models from 4.6 on use adaptive thinking; 3.7 to 4.5 a fixed budget below max_tokens.
    """
    found = _FAMILY.search(model)
    if found:
        major, minor = int(found.group(1)), int(found.group(2) or 0)
        if major >= 5 or (major == 4 and minor >= 6):
            return ClaudeProfile(THINKING_MAX_TOKENS, {"type": "adaptive"})
        if major == 4:
            return _budgeted()
    if "claude-3-7-sonnet" in model:
        return _budgeted()
    return ClaudeProfile(PLAIN_MAX_TOKENS, None)


def _budgeted() -> ClaudeProfile:
    return ClaudeProfile(THINKING_MAX_TOKENS, {"type": "enabled", "budget_tokens": THINKING_BUDGET})
