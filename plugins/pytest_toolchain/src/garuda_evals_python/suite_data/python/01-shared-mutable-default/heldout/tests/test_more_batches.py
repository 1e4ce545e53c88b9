from decimal import Decimal

from invoicing import Invoice, Line, build_invoices, render_invoice


def test_a_later_customer_is_billed_only_their_lines():
    invoices = build_invoices(
        [
            {"customer": "umbrella", "sku": "GEAR", "quantity": "2", "unit_price": "3.50"},
            {"customer": "hooli", "sku": "CHIP", "quantity": "5", "unit_price": "1.20"},
            {"customer": "umbrella", "sku": "BELT", "quantity": "1", "unit_price": "9.99"},
        ]
    )
    assert invoices["hooli"].total == Decimal("6.00")


def test_a_new_invoice_starts_empty():
    Invoice("first").add_line(Line("AXLE", 3, Decimal("2.00")))
    assert Invoice("second").total == Decimal("0.00")


def test_a_repeated_render_keeps_one_shipping_note():
    invoice = Invoice("wayne")
    invoice.add_line(Line("CAPE", 1, Decimal("120.00")))
    render_invoice(invoice)
    assert len(render_invoice(invoice).splitlines()) == 5
