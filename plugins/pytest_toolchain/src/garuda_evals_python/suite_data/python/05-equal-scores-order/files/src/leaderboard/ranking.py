"""Order results for the board and number them."""

from __future__ import annotations

from collections.abc import Iterable

from leaderboard.models import Ranked, Result


def _board_order(results: Iterable[Result]) -> list[Result]:
    return sorted(results, key=lambda r: (r.score, r.reached_at), reverse=True)


def rank_results(results: Iterable[Result]) -> list[Ranked]:
    """Every result with its rank, best first."""
    return [Ranked(rank, result) for rank, result in enumerate(_board_order(results), start=1)]


def top(results: Iterable[Result], n: int) -> list[Ranked]:
    """The first ``n`` places of the board."""
    if n < 0:
        raise ValueError(f"n must not be negative, got {n}")
    return rank_results(results)[:n]
