"""What parse_duration accepts and rejects.

A duration is one or more parts, each a number and a unit: w (weeks), d (days), h (hours),
m (minutes), s (seconds), ms (milliseconds). Units go from the largest to the smallest and
each appears at most once. Spaces may separate parts and surround the whole; units are
case-insensitive; a number may have a decimal part.
"""

from datetime import timedelta

import pytest

from jobs import parse_duration


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("45s", timedelta(seconds=45)),
        ("15m", timedelta(minutes=15)),
        ("2h", timedelta(hours=2)),
        ("1d", timedelta(days=1)),
        ("2w", timedelta(weeks=2)),
        ("250ms", timedelta(milliseconds=250)),
        ("0s", timedelta(0)),
    ],
)
def test_single_unit(text, expected):
    assert parse_duration(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1h30m", timedelta(hours=1, minutes=30)),
        ("1d12h", timedelta(days=1, hours=12)),
        ("2m30s", timedelta(minutes=2, seconds=30)),
        ("1w2d3h4m5s6ms", timedelta(weeks=1, days=2, hours=3, minutes=4, seconds=5, milliseconds=6)),
        ("1m500ms", timedelta(minutes=1, milliseconds=500)),
    ],
)
def test_several_units(text, expected):
    assert parse_duration(text) == expected


def test_spaces_between_parts_and_around():
    assert parse_duration("1h 30m") == timedelta(hours=1, minutes=30)
    assert parse_duration("  2m  ") == timedelta(minutes=2)
    assert parse_duration("1d 2h 3m") == timedelta(days=1, hours=2, minutes=3)


def test_units_are_case_insensitive():
    assert parse_duration("1H30M") == timedelta(hours=1, minutes=30)
    assert parse_duration("100MS") == timedelta(milliseconds=100)


def test_decimal_numbers():
    assert parse_duration("1.5h") == timedelta(minutes=90)
    assert parse_duration("0.25s") == timedelta(milliseconds=250)


def test_returns_a_timedelta():
    assert isinstance(parse_duration("5m"), timedelta)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "abc",
        "90",  # no unit
        "5x",  # unknown unit
        "h",  # no number
        "1h1h",  # a unit twice
        "30m1h",  # smaller unit before a larger one
        "-5m",  # negative
        "1 h",  # space between a number and its unit
        "1h30",  # a trailing number without unit
        "1..5h",
    ],
)
def test_rejects_what_is_not_a_duration(text):
    with pytest.raises(ValueError) as raised:
        parse_duration(text)
    assert repr(text) in str(raised.value)
