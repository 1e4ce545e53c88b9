"""Render an invoice as plain text for the e-mail body."""

from __future__ import annotations

from decimal import Decimal

from invoicing.invoice import Invoice

FREE_SHIPPING_FROM = Decimal("100.00")


def render_invoice(invoice: Invoice, notes: list[str] = []) -> str:
    """The invoice as text: a header, one row per line, the total, then the notes."""
    if invoice.total >= FREE_SHIPPING_FROM:
        notes.append("Free shipping applied.")
    notes.append(f"Thank you for your order, {invoice.customer}!")
    rows = [f"Invoice for {invoice.customer}"]
    for line in invoice.lines:
        rows.append(
            f"  {line.sku:<10} {line.quantity:>3} x {line.unit_price:>8} = {line.amount:>9}"
        )
    rows.append(f"  {'Total':<29} {invoice.total:>9}")
    rows.extend(notes)
    return "\n".join(rows)
