"""mulberry32: a tiny pseudo-random generator whose output never changes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class Mulberry32:
    """A tiny, fixed pseudo-random generator."""

    def __init__(self, seed: int) -> None:
        self.state = seed & 0xFFFFFFFF

    def next(self) -> int:
        """The next 32-bit value."""
        self.state = (self.state + 0x6D2B79F5) & 0xFFFFFFFF
        t = self.state
        t = ((t ^ (t >> 15)) * (t | 1)) & 0xFFFFFFFF
        t ^= (t + (((t ^ (t >> 7)) * (t | 61)) & 0xFFFFFFFF)) & 0xFFFFFFFF
        return (t ^ (t >> 14)) & 0xFFFFFFFF

    def below(self, n: int) -> int:
        """An integer in ``0..n-1``."""
        return self.next() % n

    def pick(self, items: Sequence[T]) -> T:
        """One item of ``items``."""
        return items[self.below(len(items))]
