"""``python -m ledger.cli ledger.csv``: print the monthly report and budget warnings."""

from __future__ import annotations

import sys
from decimal import Decimal
from pathlib import Path

from ledger.budget import over_budget
from ledger.entries import parse_entries
from ledger.report import format_report
from ledger.totals import net_total

LIMITS = {"groceries": Decimal("400"), "eating out": Decimal("150")}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: ledger.cli FILE.csv", file=sys.stderr)
        return 2
    entries = parse_entries(Path(args[0]).read_text(encoding="utf-8"))
    print(format_report(entries))
    for category, amount in over_budget(entries, LIMITS).items():
        print(f"over budget: {category} by {amount}")
    if net_total(entries) < 0:
        print("warning: you spent more than you earned")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
