from datetime import timedelta

from jobs import parse_duration


def test_hours_and_minutes_a():
    assert parse_duration("2h15m") == timedelta(hours=2, minutes=5)


def test_hours_and_minutes_b():
    assert parse_duration("2h15m") == timedelta(minutes=215)


def test_days_and_seconds_with_spaces_a():
    assert parse_duration(" 3d 40s ") == timedelta(days=3, minutes=40)


def test_days_and_seconds_with_spaces_b():
    assert parse_duration(" 3d 40s ") == timedelta(hours=3, seconds=40)


def test_a_decimal_number_of_minutes_a():
    assert parse_duration("2.5M") == timedelta(seconds=125)


def test_a_decimal_number_of_minutes_b():
    assert parse_duration("2.5M") == timedelta(minutes=25)
