from datetime import datetime

import pytest

from leaderboard import Result, rank_results, top


def at(hour, minute=0):
    return datetime(2024, 7, 1, hour, minute)


def names(ranked):
    return [entry.result.player for entry in ranked]


def ranks(ranked):
    return [entry.rank for entry in ranked]


def test_higher_scores_first():
    results = [Result("ann", 10, at(9)), Result("bob", 30, at(10)), Result("cy", 20, at(11))]
    assert names(rank_results(results)) == ["bob", "cy", "ann"]
    assert ranks(rank_results(results)) == [1, 2, 3]


def test_equal_scores_earliest_first():
    results = [
        Result("late", 50, at(12)),
        Result("early", 50, at(8)),
        Result("middle", 50, at(10)),
    ]
    assert names(rank_results(results)) == ["early", "middle", "late"]


def test_equal_scores_share_a_rank_and_the_next_rank_is_skipped():
    results = [
        Result("dave", 70, at(9)),
        Result("carol", 90, at(11)),
        Result("ann", 100, at(12)),
        Result("bob", 90, at(10)),
    ]
    ranked = rank_results(results)
    assert names(ranked) == ["ann", "bob", "carol", "dave"]
    assert ranks(ranked) == [1, 2, 2, 4]


def test_ties_at_the_top():
    results = [Result("x", 5, at(7)), Result("y", 5, at(6)), Result("z", 1, at(5))]
    ranked = rank_results(results)
    assert names(ranked) == ["y", "x", "z"]
    assert ranks(ranked) == [1, 1, 3]


def test_top_cuts_after_ranking():
    results = [Result("a", 3, at(9)), Result("b", 3, at(8)), Result("c", 2, at(7))]
    assert names(top(results, 2)) == ["b", "a"]
    assert top(results, 0) == []
    with pytest.raises(ValueError):
        top(results, -1)


def test_empty_board():
    assert rank_results([]) == []
