"""Human-written durations such as ``15m`` or ``1h30m``."""

from __future__ import annotations

from datetime import timedelta


def parse_duration(text: str) -> timedelta:
    """The duration that ``text`` names; ValueError (naming ``text``) when it is not one.

    The accepted format is the one that tests/test_duration.py describes.
    """
    raise NotImplementedError("parse_duration is not written yet")
