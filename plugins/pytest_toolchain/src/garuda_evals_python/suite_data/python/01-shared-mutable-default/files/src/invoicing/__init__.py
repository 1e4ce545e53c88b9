"""Build customer invoices from order rows and render them as text."""

from invoicing.builder import build_invoices, parse_row
from invoicing.invoice import Invoice, Line
from invoicing.render import render_invoice

__all__ = ["Invoice", "Line", "build_invoices", "parse_row", "render_invoice"]
