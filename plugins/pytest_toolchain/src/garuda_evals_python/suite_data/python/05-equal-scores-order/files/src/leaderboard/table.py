"""The board as fixed-width text."""

from __future__ import annotations

from collections.abc import Iterable

from leaderboard.models import Ranked


def render_table(ranked: Iterable[Ranked]) -> str:
    """One line per result: rank, player, score and the time the score was reached."""
    lines = []
    for entry in ranked:
        result = entry.result
        lines.append(
            f"{entry.rank:>3}. {result.player:<12} {result.score:>6}  "
            f"{result.reached_at:%Y-%m-%d %H:%M}"
        )
    return "\n".join(lines)
