import pytest

from leaderboard import load_results, rank_results, render_table

EXPORT = """
# player;score;reached_at
mia;120;2024-07-01T10:15
noah;150;2024-07-01T11:00
liam;120;2024-07-01T09:40

olga;80;2024-07-01T08:00
"""


def test_load_results_skips_comments_and_blanks():
    results = load_results(EXPORT)
    assert [r.player for r in results] == ["mia", "noah", "liam", "olga"]
    assert results[1].score == 150


def test_load_results_names_the_bad_line():
    with pytest.raises(ValueError, match="line 2"):
        load_results("ann;1;2024-07-01T10:00\nbob;many;2024-07-01T10:00\n")


def test_render_table():
    text = render_table(rank_results(load_results(EXPORT)))
    assert text.splitlines() == [
        "  1. noah            150  2024-07-01 11:00",
        "  2. liam            120  2024-07-01 09:40",
        "  2. mia             120  2024-07-01 10:15",
        "  4. olga             80  2024-07-01 08:00",
    ]
