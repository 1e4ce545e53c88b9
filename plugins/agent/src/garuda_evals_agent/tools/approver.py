"""The approver: allows each call once, and denies commands by rule."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fnmatch import fnmatchcase

DENY_RULES = ("rm -rf*", "sudo*", "git push*", "curl*", "wget*")
_SEPARATORS = re.compile(r"&&|\|\||[;|&\n]|\$\(|`|\(|\)")


@dataclass(frozen=True)
class Decision:
    """Allowed, or denied with the rule that matched."""

    allowed: bool
    rule: str | None = None

    def message(self, command: str) -> str:
        """What the model is told about a denial."""
        return f"Denied: the command matches the deny rule '{self.rule}' and was not run: {command}"


class Approver:
    """Allows each tool call once (no prompt: evals run unattended), denying by ``rules``.

    Every simple command of a compound command line is checked, so ``cd x && rm -rf y``
    is denied like ``rm -rf y``.
    """

    def __init__(self, rules: tuple[str, ...] = DENY_RULES) -> None:
        self.rules = rules

    def check_command(self, command: str) -> Decision:
        """The decision for one shell command line."""
        for segment in _SEPARATORS.split(command):
            words = segment.strip()
            words = re.sub(r"^(?:\w+=\S*\s+)+", "", words)
            words = re.sub(r"\s+", " ", words)
            for rule in self.rules:
                if fnmatchcase(words, rule):
                    return Decision(False, rule)
        return Decision(True)
