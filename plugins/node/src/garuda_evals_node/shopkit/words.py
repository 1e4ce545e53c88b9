"""The words shopkit's demo data is made of."""

from __future__ import annotations

CATEGORIES = (
    ("Office", "Pens, paper and desk things"),
    ("Kitchen", "Cups, pans and knives"),
    ("Garden", "Tools and seeds"),
    ("Books", "Paper and e-books"),
    ("Audio", "Headphones and speakers"),
    ("Outdoor", "Tents, lamps and bottles"),
)
ADJECTIVES = (
    "Classic",
    "Compact",
    "Deluxe",
    "Eco",
    "Folding",
    "Heavy",
    "Mini",
    "Smart",
    "Steel",
    "Travel",
)
NOUNS = {
    "office": ("Pen Set", "Notebook", "Desk Lamp", "Stapler"),
    "kitchen": ("Mug", "Frying Pan", "Chef Knife", "Kettle"),
    "garden": ("Trowel", "Hose", "Seed Kit", "Pruner"),
    "books": ("Cookbook", "Atlas", "Novel", "Field Guide"),
    "audio": ("Headphones", "Speaker", "Earbuds", "Radio"),
    "outdoor": ("Tent", "Lantern", "Water Bottle", "Sleeping Bag"),
}
FIRST = (
    "Ada",
    "Bruno",
    "Chloe",
    "Dario",
    "Elif",
    "Farid",
    "Greta",
    "Hugo",
    "Ines",
    "Jonas",
)
LAST = (
    "Marsh",
    "Okafor",
    "Lindqvist",
    "Navarro",
    "Brandt",
    "Sato",
    "Quinn",
    "Moreau",
    "Haddad",
    "Ferreira",
)
CITIES = (
    ("Portland", "OR"),
    ("Austin", "TX"),
    ("Albany", "NY"),
    ("Fresno", "CA"),
    ("Spokane", "WA"),
)
COUPONS = (
    {"code": "WELCOME5", "amountCents": 500, "minSubtotalCents": 2000},
    {
        "code": "BIG20",
        "amountCents": 2000,
        "minSubtotalCents": 10000,
        "expiresAt": "2030-12-31T00:00:00.000Z",
    },
    {"code": "OLD10", "amountCents": 1000, "expiresAt": "2023-12-31T00:00:00.000Z"},
)
CARRIERS = ("ups", "fedex", "usps", None)
REVIEW_TEXTS = (
    "Does the job.",
    "Better than expected.",
    "Arrived late, works fine.",
    "Would buy again.",
)
