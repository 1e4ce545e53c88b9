"""Human-written durations such as ``15m`` or ``1h30m``."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

# Largest unit first: a duration's parts must come in this order, each at most once.
UNITS = {
    "w": timedelta(weeks=1),
    "d": timedelta(days=1),
    "h": timedelta(hours=1),
    "m": timedelta(minutes=1),
    "s": timedelta(seconds=1),
    "ms": timedelta(milliseconds=1),
}
RANK = {unit: rank for rank, unit in enumerate(UNITS)}
PART = re.compile(r"(\d+(?:\.\d+)?)(ms|w|d|h|m|s)\s*", re.IGNORECASE)


def parse_duration(text: str) -> timedelta:
    """The duration that ``text`` names; ValueError (naming ``text``) when it is not one.

    The accepted format is the one that tests/test_duration.py describes.
    """
    rest = text.strip()
    if not rest:
        raise ValueError(f"empty duration: {text!r}")
    total = timedelta(0)
    last_rank = -1
    position = 0
    while position < len(rest):
        match = PART.match(rest, position)
        if match is None:
            raise ValueError(f"not a duration: {text!r} (at {rest[position:]!r})")
        number, unit = Decimal(match.group(1)), match.group(2).lower()
        if RANK[unit] <= last_rank:
            raise ValueError(f"not a duration: {text!r} (units must go from large to small)")
        last_rank = RANK[unit]
        microseconds = number * Decimal(UNITS[unit] // timedelta(microseconds=1))
        total += timedelta(microseconds=int(microseconds))
        position = match.end()
    return total
