"""A month-by-month report of the balance."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from decimal import Decimal

from ledger.entries import Entry
from ledger.totals import calc_total


def monthly_report(entries: Iterable[Entry]) -> dict[str, Decimal]:
    """``YYYY-MM -> income minus expenses`` of that month, in calendar order."""
    by_month: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        by_month[entry.day.strftime("%Y-%m")].append(entry)
    return {month: calc_total(by_month[month]) for month in sorted(by_month)}


def format_report(entries: Iterable[Entry]) -> str:
    """The monthly report as text, with the overall balance last."""
    entries = list(entries)
    lines = [f"{month}  {amount:>10}" for month, amount in monthly_report(entries).items()]
    lines.append(f"{'total':<7}  {calc_total(entries):>10}")
    return "\n".join(lines)
