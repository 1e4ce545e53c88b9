"""The entities of shopkit: the data the generator renders modules and tests from."""

from __future__ import annotations

from garuda_evals_node.shopkit.model import Entity, Field

S = Field

ENTITIES: tuple[Entity, ...] = (
    Entity(
        "category",
        "cat",
        (
            S("name", "str", "'Office'", max=60),
            S("slug", "str", "'office'", max=60),
            S("description", "optstr", "'Pens, paper and desks'", max=500),
        ),
        "A product category; products point at it by id, URLs use its slug.",
    ),
    Entity(
        "product",
        "prod",
        (
            S("sku", "str", "'PEN-001'", max=32),
            S("name", "str", "'Gel pen'", max=120),
            S("priceCents", "cents", "199"),
            S("categoryId", "ref", "'cat_0001'"),
            S("active", "bool", "false", default="true"),
            S("description", "optstr", "'Smooth blue ink'", max=2000),
        ),
        "Something the shop sells. Prices are integer cents.",
    ),
    Entity(
        "customer",
        "cus",
        (
            S("email", "email", "'ada@example.com'"),
            S("$NAME$", "str", "'Ada Marsh'", max=100),
            S("phone", "optstr", "'+1 555 0100'", max=30),
        ),
        "A registered customer; the email is unique (the service checks it).",
    ),
    Entity(
        "address",
        "addr",
        (
            S("customerId", "ref", "'cus_0001'"),
            S("line1", "str", "'1 Main St'", max=120),
            S("city", "str", "'Springfield'", max=80),
            S("postalCode", "str", "'97403'", max=12),
            S("region", "enum", "'OR'", choices=("CA", "NY", "OR", "TX", "WA")),
        ),
        "A shipping address; its region decides the sales tax.",
    ),
    Entity(
        "cart",
        "cart",
        (
            S("customerId", "ref", "'cus_0001'"),
            S("lines", "list", "[{ productId: 'prod_0001', quantity: 2 }]", default="[]"),
            S("couponCode", "optstr", "'SAVE5'", max=32),
        ),
        "A customer's cart: lines of { productId, quantity } and an optional coupon code.",
    ),
    Entity(
        "order",
        "ord",
        (
            S("customerId", "ref", "'cus_0001'"),
            S("addressId", "ref", "'addr_0001'"),
            S(
                "lines",
                "list",
                "[{ productId: 'prod_0001', name: 'Gel pen', quantity: 2, "
                "unitCents: 199, lineCents: 398 }]",
            ),
            S("subtotalCents", "cents", "398"),
            S("discountCents", "cents", "0", default="0"),
            S("taxCents", "cents", "29"),
            S("shippingCents", "cents", "599"),
            S("totalCents", "cents", "1026"),
            S("couponCode", "optstr", "'SAVE5'", max=32),
            S(
                "status",
                "enum",
                "'paid'",
                default="'pending'",
                choices=("pending", "paid", "shipped", "cancelled"),
            ),
        ),
        "A placed order. Its money fields are fixed when it is placed.",
    ),
    Entity(
        "coupon",
        "cpn",
        (
            S("code", "str", "'SAVE5'", max=32),
            S("type", "enum", "'fixed'", default="'fixed'", choices=("fixed",)),
            S("amountCents", "cents", "500"),
            S("minSubtotalCents", "cents", "2000", default="0"),
            S("expiresAt", "optdate", "'2024-12-31T00:00:00.000Z'"),
            S("active", "bool", "false", default="true"),
        ),
        "A discount code. Codes are matched without regard to case.",
    ),
    Entity(
        "payment",
        "pay",
        (
            S("orderId", "ref", "'ord_0001'"),
            S("kind", "enum", "'refund'", default="'charge'", choices=("charge", "refund")),
            S("method", "enum", "'card'", choices=("card", "paypal", "gift-card")),
            S("amountCents", "cents", "1026"),
        ),
        "Money taken for an order (a charge) or given back (a refund).",
    ),
    Entity(
        "shipment",
        "shp",
        (
            S("orderId", "ref", "'ord_0001'"),
            S("carrier", "enum", "'ups'", choices=("fedex", "ups", "usps")),
            S("trackingNumber", "str", "'UPS-000001'", max=40),
        ),
        "A parcel on its way; one per order.",
    ),
    Entity(
        "review",
        "rev",
        (
            S("productId", "ref", "'prod_0001'"),
            S("customerId", "ref", "'cus_0001'"),
            S("rating", "int", "4", minimum=1, maximum=5),
            S("text", "optstr", "'Writes well.'", max=2000),
            S("verified", "bool", "true", default="false"),
        ),
        "A product review; verified when the customer bought the product.",
    ),
)
