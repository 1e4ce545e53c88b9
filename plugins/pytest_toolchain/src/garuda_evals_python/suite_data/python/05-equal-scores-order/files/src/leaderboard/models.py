"""A player's result, and a result with its place on the board."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Result:
    """A score and the moment the player reached it."""

    player: str
    score: int
    reached_at: datetime


@dataclass(frozen=True)
class Ranked:
    """A result and its rank (1 is the best)."""

    rank: int
    result: Result
