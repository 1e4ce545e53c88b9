"""Order results for the board and number them."""

from __future__ import annotations

from collections.abc import Iterable

from leaderboard.models import Ranked, Result


def _board_order(results: Iterable[Result]) -> list[Result]:
    # Higher score first; for equal scores, whoever reached it first.
    return sorted(results, key=lambda r: (-r.score, r.reached_at))


def rank_results(results: Iterable[Result]) -> list[Ranked]:
    """Every result with its rank, best first; equal scores share a rank (1, 2, 2, 4)."""
    ranked: list[Ranked] = []
    for place, result in enumerate(_board_order(results), start=1):
        if ranked and ranked[-1].result.score == result.score:
            ranked.append(Ranked(ranked[-1].rank, result))
        else:
            ranked.append(Ranked(place, result))
    return ranked


def top(results: Iterable[Result], n: int) -> list[Ranked]:
    """The first ``n`` places of the board."""
    if n < 0:
        raise ValueError(f"n must not be negative, got {n}")
    return rank_results(results)[:n]
