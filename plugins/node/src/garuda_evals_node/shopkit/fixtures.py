"""Render ``fixtures/*.js``, the demo data, from a seeded generator of our own.

Python's ``random`` may change between versions; mulberry32 here never does, so the
same seed gives the same bytes everywhere.
"""

from __future__ import annotations

import json

from garuda_evals_node.shopkit.prng import Mulberry32
from garuda_evals_node.shopkit.spec import ShopkitSpec
from garuda_evals_node.shopkit.words import (
    ADJECTIVES,
    CARRIERS,
    CATEGORIES,
    CITIES,
    COUPONS,
    FIRST,
    LAST,
    NOUNS,
    REVIEW_TEXTS,
)


def _module(name: str, value: object, doc: str) -> str:
    body = json.dumps(value, indent=2, ensure_ascii=False)
    header = f"/** {doc} Generated: edit the generator, not this file. */"
    return f"{header}\nexport const {name} = {body};\n"


def _slug(name: str) -> str:
    return name.lower()


def render_fixtures(spec: ShopkitSpec) -> dict[str, str]:
    """``fixtures/<name>.js`` -> text for categories, products, stock, coupons, customers,
    addresses, orders and reviews."""
    rng = Mulberry32(spec.seed)
    categories = [{"name": n, "slug": _slug(n), "description": d} for n, d in CATEGORIES]
    products = []
    for i in range(spec.products):
        category = categories[i % len(categories)]["slug"]
        noun = NOUNS[category][(i // len(categories)) % len(NOUNS[category])]
        name = f"{rng.pick(ADJECTIVES)} {noun}"
        price = (rng.below(120) + 3) * 100 + rng.pick((0, 49, 50, 95, 99))
        products.append(
            {
                "sku": f"{category[:3].upper()}-{i + 1:03d}",
                "name": name,
                "priceCents": price,
                "category": category,
            }
        )
    stock = {p["sku"]: 20 + rng.below(40) for p in products}
    customers, addresses = [], []
    for i in range(spec.customers):
        first, last = FIRST[i % len(FIRST)], LAST[(i * 3) % len(LAST)]
        email = f"{first.lower()}.{last.lower()}@example.com"
        customers.append({"email": email, "$NAME$": f"{first} {last}"})
        city, region = rng.pick(CITIES)
        addresses.append(
            {
                "email": email,
                "line1": f"{10 + rng.below(890)} Main St",
                "city": city,
                "postalCode": f"{10000 + rng.below(89999)}",
                "region": region,
            }
        )
    prices = {p["sku"]: p["priceCents"] for p in products}
    orders = []
    for i in range(spec.customers - 2):
        items = []
        for _ in range(1 + rng.below(3)):
            sku = rng.pick(products)["sku"]
            if sku not in [s for s, _ in items]:
                items.append([sku, 1 + rng.below(3)])
        subtotal = sum(prices[s] * q for s, q in items)
        order = {
            "email": customers[i]["email"],
            "items": items,
            "carrier": CARRIERS[i % len(CARRIERS)],
        }
        if i % 2 == 0 and subtotal >= 2000:
            order["coupon"] = "WELCOME5"
        orders.append(order)
    reviews = []
    for i, order in enumerate(orders[:4]):
        reviews.append(
            {
                "sku": order["items"][0][0],
                "email": order["email"],
                "rating": 3 + rng.below(3),
                "text": REVIEW_TEXTS[i % len(REVIEW_TEXTS)],
            }
        )
    return {
        "fixtures/categories.js": _module("categories", categories, "Demo categories."),
        "fixtures/products.js": _module(
            "products", products, "Demo products; `category` is a slug."
        ),
        "fixtures/stock.js": _module("stock", stock, "Units on the shelf per SKU."),
        "fixtures/coupons.js": _module("coupons", list(COUPONS), "Demo coupons."),
        "fixtures/customers.js": _module("customers", customers, "Demo customers."),
        "fixtures/addresses.js": _module(
            "addresses", addresses, "One address per customer, by email."
        ),
        "fixtures/orders.js": _module(
            "orders", orders, "Orders placed and paid at seed time; `carrier` ships them."
        ),
        "fixtures/reviews.js": _module(
            "reviews", reviews, "Reviews by customers who bought the product."
        ),
    }
