"""Ledger entries and the CSV format they are kept in (date,category,kind,amount)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

KINDS = ("income", "expense")


@dataclass(frozen=True)
class Entry:
    """Money in (income) or out (expense) on one day, in one category."""

    day: date
    category: str
    kind: str
    amount: Decimal

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be income or expense, got {self.kind!r}")
        if self.amount < 0:
            raise ValueError("amount must not be negative; use kind to give the direction")

    @property
    def signed(self) -> Decimal:
        return self.amount if self.kind == "income" else -self.amount


def parse_entries(text: str) -> list[Entry]:
    """Entries from CSV text with a header row."""
    entries = []
    for number, row in enumerate(csv.DictReader(io.StringIO(text)), start=2):
        try:
            amount = Decimal(row["amount"])
        except InvalidOperation as error:
            raise ValueError(f"line {number}: bad amount {row['amount']!r}") from error
        entries.append(
            Entry(date.fromisoformat(row["date"]), row["category"], row["kind"], amount)
        )
    return entries
