"""A small household ledger: entries, totals, monthly reports and budget checks."""

from ledger.budget import over_budget
from ledger.entries import Entry, parse_entries
from ledger.report import format_report, monthly_report
from ledger.totals import net_total

__all__ = [
    "Entry",
    "format_report",
    "monthly_report",
    "net_total",
    "over_budget",
    "parse_entries",
]
