from decimal import Decimal

import pytest

from invoicing import build_invoices, parse_row

ROWS = [
    {"customer": "acme", "sku": "BOLT-10", "quantity": "40", "unit_price": "0.25"},
    {"customer": "globex", "sku": "NUT-10", "quantity": "100", "unit_price": "0.05"},
    {"customer": "acme", "sku": "WASHER", "quantity": "40", "unit_price": "0.10"},
]


def test_parse_row_strips_and_converts():
    customer, line = parse_row(
        {"customer": " acme ", "sku": " BOLT-10", "quantity": "3", "unit_price": "0.25 "}
    )
    assert customer == "acme"
    assert (line.sku, line.quantity, line.unit_price) == ("BOLT-10", 3, Decimal("0.25"))


def test_parse_row_rejects_a_bad_price():
    with pytest.raises(ValueError, match="bad unit price"):
        parse_row({"customer": "acme", "sku": "X", "quantity": "1", "unit_price": "cheap"})


def test_each_customer_gets_only_their_lines():
    invoices = build_invoices(ROWS)
    assert list(invoices) == ["acme", "globex"]
    assert [line.sku for line in invoices["acme"].lines] == ["BOLT-10", "WASHER"]
    assert [line.sku for line in invoices["globex"].lines] == ["NUT-10"]
    assert invoices["acme"].total == Decimal("14.00")
    assert invoices["globex"].total == Decimal("5.00")


def test_two_batches_do_not_share_lines():
    first = build_invoices(ROWS[:1])
    second = build_invoices(ROWS[1:2])
    assert len(first["acme"].lines) == 1
    assert len(second["globex"].lines) == 1
    assert second["globex"].total == Decimal("5.00")


def test_rejects_a_zero_quantity():
    with pytest.raises(ValueError, match="quantity must be positive"):
        build_invoices([{"customer": "acme", "sku": "X", "quantity": "0", "unit_price": "1"}])
