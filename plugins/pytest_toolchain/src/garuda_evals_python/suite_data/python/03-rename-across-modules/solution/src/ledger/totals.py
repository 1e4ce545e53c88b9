"""Totals over ledger entries."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from ledger.entries import Entry


def net_total(entries: Iterable[Entry], category: str | None = None) -> Decimal:
    """Income minus expenses, for one category or for all of them."""
    return sum(
        (e.signed for e in entries if category is None or e.category == category),
        Decimal("0"),
    )


def spent(entries: Iterable[Entry], category: str) -> Decimal:
    """What went out in ``category`` (a positive number), net of refunds booked as income."""
    return -net_total(entries, category)
