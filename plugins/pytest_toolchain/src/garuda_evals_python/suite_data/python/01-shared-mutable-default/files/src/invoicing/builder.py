"""Group a day's order rows (dicts read from the shop's CSV export) into invoices."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation

from invoicing.invoice import Invoice, Line


def parse_row(row: Mapping[str, str]) -> tuple[str, Line]:
    """The customer and the line of one CSV row."""
    try:
        price = Decimal(row["unit_price"].strip())
    except InvalidOperation as error:
        raise ValueError(f"bad unit price {row['unit_price']!r}") from error
    line = Line(sku=row["sku"].strip(), quantity=int(row["quantity"]), unit_price=price)
    return row["customer"].strip(), line


def build_invoices(rows: Iterable[Mapping[str, str]]) -> dict[str, Invoice]:
    """One invoice per customer, in the order customers first appear."""
    invoices: dict[str, Invoice] = {}
    for row in rows:
        customer, line = parse_row(row)
        if customer not in invoices:
            invoices[customer] = Invoice(customer)
        invoices[customer].add_line(line)
    return invoices
