from datetime import date
from decimal import Decimal

from ledger import Entry, format_report, monthly_report, over_budget, parse_entries

CSV = """date,category,kind,amount
2024-03-01,salary,income,2500
2024-03-05,groceries,expense,420.00
2024-04-01,salary,income,2500
2024-04-03,eating out,expense,60
2024-04-20,groceries,expense,310.25
"""


def test_monthly_report():
    report = monthly_report(parse_entries(CSV))
    assert report == {"2024-03": Decimal("2080.00"), "2024-04": Decimal("2129.75")}


def test_format_report_ends_with_the_total():
    text = format_report(parse_entries(CSV))
    assert text.splitlines()[-1].split() == ["total", "4209.75"]


def test_over_budget():
    entries = parse_entries(CSV)
    assert over_budget(entries, {"groceries": Decimal("700")}) == {"groceries": Decimal("30.25")}
    assert over_budget(entries, {"eating out": Decimal("100")}) == {}


def test_entry_rejects_an_unknown_kind():
    import pytest

    with pytest.raises(ValueError, match="income or expense"):
        Entry(date(2024, 1, 1), "x", "transfer", Decimal("1"))
