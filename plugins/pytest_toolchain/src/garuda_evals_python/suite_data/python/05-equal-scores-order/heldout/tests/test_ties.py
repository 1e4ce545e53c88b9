from datetime import datetime

from leaderboard import Result, rank_results, top


def at(hour):
    return datetime(2024, 8, 3, hour)


def test_three_tied_players_share_the_first_rank():
    assert [entry.rank for entry in rank_results([Result("g", 90, at(9)), Result("h", 90, at(8)), Result("i", 90, at(10)), Result("j", 40, at(7))])] == [1, 1, 1, 4]


def test_the_earlier_of_two_tied_players_comes_first():
    assert [entry.result.player for entry in rank_results([Result("p", 20, at(14)), Result("q", 20, at(13)), Result("r", 30, at(15))])] == ["r", "q", "p"]


def test_top_keeps_the_shared_ranks():
    assert [(e.result.player, e.rank) for e in top([Result("a", 5, at(9)), Result("b", 5, at(8)), Result("c", 4, at(7)), Result("d", 4, at(6))], 3)] == [("b", 1), ("a", 1), ("d", 3)]
