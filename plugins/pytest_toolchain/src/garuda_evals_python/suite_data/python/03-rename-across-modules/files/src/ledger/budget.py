"""Compare spending per category with a monthly budget."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal

from ledger import totals
from ledger.entries import Entry


def over_budget(entries: Iterable[Entry], limits: Mapping[str, Decimal]) -> dict[str, Decimal]:
    """``category -> amount over its limit``, for the categories that went over."""
    entries = list(entries)
    over = {}
    for category, limit in limits.items():
        outgoing = -totals.calc_total(entries, category=category)
        if outgoing > limit:
            over[category] = outgoing - limit
    return over
