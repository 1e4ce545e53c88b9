"""An invoice: a customer and the lines billed to them."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Line:
    """One billed item: a product code, a quantity and a unit price."""

    sku: str
    quantity: int
    unit_price: Decimal

    @property
    def amount(self) -> Decimal:
        return self.unit_price * self.quantity


class Invoice:
    """The lines billed to one customer."""

    def __init__(self, customer: str, lines: list[Line] | None = None) -> None:
        self.customer = customer
        self.lines = list(lines) if lines is not None else []

    def add_line(self, line: Line) -> None:
        if line.quantity <= 0:
            raise ValueError(f"quantity must be positive, got {line.quantity} for {line.sku}")
        self.lines.append(line)

    @property
    def total(self) -> Decimal:
        return sum((line.amount for line in self.lines), Decimal("0.00"))

    def __repr__(self) -> str:
        return f"Invoice({self.customer!r}, {len(self.lines)} lines, total={self.total})"
