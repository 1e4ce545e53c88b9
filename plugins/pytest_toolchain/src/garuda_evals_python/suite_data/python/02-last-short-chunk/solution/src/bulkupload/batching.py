"""Split a list of records into batches of at most ``size`` records."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def _check_size(size: int) -> None:
    if size < 1:
        raise ValueError(f"batch size must be at least 1, got {size}")


def batch_count(total: int, size: int) -> int:
    """How many batches ``total`` records make."""
    _check_size(size)
    if total < 0:
        raise ValueError(f"total must not be negative, got {total}")
    return -(-total // size)


def chunked(items: Sequence[T], size: int) -> list[list[T]]:
    """The batches, in order; the last one holds what is left (it may be shorter)."""
    _check_size(size)
    return [list(items[start : start + size]) for start in range(0, len(items), size)]
