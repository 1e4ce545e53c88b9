"""Read results from the game server's export: ``player;score;reached_at`` per line."""

from __future__ import annotations

from datetime import datetime

from leaderboard.models import Result


def load_results(text: str) -> list[Result]:
    """Results in file order; blank lines and ``#`` comments are skipped."""
    results = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            player, score, reached_at = (part.strip() for part in line.split(";"))
            results.append(Result(player, int(score), datetime.fromisoformat(reached_at)))
        except ValueError as error:
            raise ValueError(f"line {number}: {error}") from error
    return results
