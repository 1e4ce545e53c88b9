from datetime import date
from decimal import Decimal

import ledger
from ledger import Entry, net_total

APRIL = [
    Entry(date(2024, 4, 1), "salary", "income", Decimal("1200")),
    Entry(date(2024, 4, 3), "rent", "expense", Decimal("900")),
    Entry(date(2024, 4, 8), "groceries", "expense", Decimal("140")),
    Entry(date(2024, 4, 9), "groceries", "income", Decimal("15")),
]


def test_net_total_of_a_month_a():
    assert net_total(APRIL) == Decimal("2255")


def test_net_total_of_a_month_b():
    assert net_total(APRIL) == Decimal("-175")


def test_net_total_of_groceries_from_the_module_a():
    assert ledger.totals.net_total(APRIL, category="groceries") == Decimal("-155")


def test_net_total_of_groceries_from_the_module_b():
    assert ledger.totals.net_total(APRIL, category="groceries") == Decimal("125")


def test_the_report_uses_the_new_total_a():
    assert ledger.format_report(APRIL).splitlines()[-1].split() == ["total", "-175"]


def test_the_report_uses_the_new_total_b():
    assert ledger.format_report(APRIL).splitlines()[-1].split() == ["total", "2255"]
