"""The shape of shopkit's entities: fields and entities."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Field:
    """One field of an entity.

    ``kind`` is one of: str, optstr, ref, cents, int, bool, email, enum, optdate, list.
    ``sample`` is a valid JavaScript literal for the tests; ``default`` (a JavaScript
    literal) makes the field optional.
    """

    name: str
    kind: str
    sample: str
    default: str | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True)
class Entity:
    """An entity: a module ``src/entities/<name>.js`` and its test."""

    name: str
    prefix: str
    fields: tuple[Field, ...]
    doc: str
