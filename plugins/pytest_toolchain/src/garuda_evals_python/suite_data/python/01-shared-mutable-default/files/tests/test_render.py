from decimal import Decimal

from invoicing import Invoice, Line, render_invoice


def small_invoice(customer="acme"):
    invoice = Invoice(customer)
    invoice.add_line(Line("BOLT-10", 40, Decimal("0.25")))
    return invoice


def large_invoice():
    invoice = Invoice("initech")
    invoice.add_line(Line("DRILL", 1, Decimal("149.00")))
    return invoice


def test_render_shows_lines_total_and_thanks():
    text = render_invoice(small_invoice())
    lines = text.splitlines()
    assert lines[0] == "Invoice for acme"
    assert "BOLT-10" in lines[1] and lines[1].endswith("10.00")
    assert lines[2].startswith("  Total") and lines[2].endswith("10.00")
    assert lines[3:] == ["Thank you for your order, acme!"]


def test_free_shipping_note_only_for_large_orders():
    assert "Free shipping applied." in render_invoice(large_invoice())
    assert "Free shipping applied." not in render_invoice(small_invoice("globex"))


def test_rendering_twice_gives_the_same_text():
    invoice = small_invoice()
    assert render_invoice(invoice) == render_invoice(invoice)


def test_caller_notes_are_kept_and_not_modified():
    notes = ["PO 7781"]
    text = render_invoice(small_invoice(), notes)
    assert notes == ["PO 7781"]
    assert text.splitlines()[-2:] == ["PO 7781", "Thank you for your order, acme!"]
