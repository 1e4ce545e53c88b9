from datetime import date
from decimal import Decimal

import ledger
from ledger import Entry
from ledger.totals import net_total, spent

ENTRIES = [
    Entry(date(2024, 3, 1), "salary", "income", Decimal("2500")),
    Entry(date(2024, 3, 2), "groceries", "expense", Decimal("80.50")),
    Entry(date(2024, 3, 9), "groceries", "expense", Decimal("120")),
    Entry(date(2024, 3, 10), "groceries", "income", Decimal("10.50")),
]


def test_net_total_of_everything():
    assert net_total(ENTRIES) == Decimal("2310.00")


def test_net_total_of_one_category():
    assert net_total(ENTRIES, category="groceries") == Decimal("-190.00")
    assert net_total(ENTRIES, "salary") == Decimal("2500")


def test_spent_is_positive():
    assert spent(ENTRIES, "groceries") == Decimal("190.00")


def test_package_exports_the_new_name():
    assert ledger.net_total is net_total
    assert "net_total" in ledger.__all__


def test_old_name_is_gone():
    import ledger.totals

    assert not hasattr(ledger, "calc_total")
    assert not hasattr(ledger.totals, "calc_total")
    assert "calc_total" not in ledger.__all__
