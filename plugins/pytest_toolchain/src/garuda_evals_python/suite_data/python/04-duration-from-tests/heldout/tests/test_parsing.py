from datetime import timedelta

from jobs import parse_duration


def test_hours_and_minutes():
    assert parse_duration("2h15m") == timedelta(hours=2, minutes=15)


def test_days_and_seconds_with_spaces():
    assert parse_duration(" 3d 40s ") == timedelta(days=3, seconds=40)


def test_a_decimal_number_of_minutes():
    assert parse_duration("2.5M") == timedelta(seconds=150)
