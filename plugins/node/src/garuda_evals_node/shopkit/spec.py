"""The input of the shopkit generator: the entities and the options."""

from __future__ import annotations

from dataclasses import dataclass, field

from garuda_evals_node.shopkit.catalog import ENTITIES
from garuda_evals_node.shopkit.model import Entity


@dataclass(frozen=True)
class ShopkitSpec:
    """What to generate. The same spec always gives the same bytes.

    ``customer_name_field`` names the customer's display-name field in the code;
    ``test_customer_name_field`` in the tests (the rename task sets them apart).
    """

    seed: int = 107
    products: int = 24
    customers: int = 8
    customer_name_field: str = "name"
    test_customer_name_field: str | None = None
    entities: tuple[Entity, ...] = field(default_factory=lambda: ENTITIES)

    @property
    def test_name_field(self) -> str:
        """The customer name field the tests use."""
        return self.test_customer_name_field or self.customer_name_field
