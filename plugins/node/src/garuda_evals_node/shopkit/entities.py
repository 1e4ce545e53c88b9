"""Render ``src/entities/<name>.js`` and ``test/entities/<name>.test.js`` from an Entity."""

from __future__ import annotations

import re

from garuda_evals_node.shopkit.model import Entity, Field

OPTIONAL_KINDS = ("optstr", "optdate")
VALIDATOR = {
    "str": "requireString",
    "optstr": "optionalString",
    "ref": "requireString",
    "cents": "requireCents",
    "int": "requireInt",
    "bool": "requireBoolean",
    "email": "requireEmail",
    "enum": "requireOneOf",
    "optdate": "requireIsoDate",
    "list": "requireList",
}


def title_case(name: str) -> str:
    return name[0].upper() + name[1:]


def upper_snake(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).upper()


def choices_constant(entity: Entity, field: Field) -> str:
    """``ORDER_STATUSES`` for the choices of ``order.status``."""
    plural = "ES" if field.name.endswith("s") else "S"
    return f"{upper_snake(entity.name)}_{upper_snake(field.name)}{plural}"


def _expression(entity: Entity, field: Field) -> str:
    value = f"input.{field.name}"
    name = f"'{field.name}'"
    kind = field.kind
    if kind in ("str", "optstr", "ref"):
        expr = f"{VALIDATOR[kind]}({value}, {name}, {{ max: {field.max or 40} }})"
    elif kind == "int":
        expr = f"requireInt({value}, {name}, {{ min: {field.minimum}, max: {field.maximum} }})"
    elif kind == "enum":
        source = value if field.default is None else f"{value} ?? {field.default}"
        return f"requireOneOf({source}, {name}, {choices_constant(entity, field)})"
    elif kind == "optdate":
        return f"{value} == null ? null : requireIsoDate({value}, {name})"
    elif kind == "list":
        source = value if field.default is None else f"{value} ?? {field.default}"
        allow = "true" if field.default is not None else "false"
        return (
            f"requireList({source}, {name}, (item) => Object.freeze({{ ...item }}), "
            f"{{ allowEmpty: {allow} }})"
        )
    else:
        expr = f"{VALIDATOR[kind]}({value}, {name})"
    if field.default is not None:
        return f"{value} === undefined ? {field.default} : {expr}"
    return expr


def render_entity(entity: Entity) -> str:
    """The entity module: field list, choices, create and update."""
    title = title_case(entity.name)
    imports = sorted({VALIDATOR[f.kind] for f in entity.fields})
    lines = [f"import {{ {', '.join(imports)} }} from '../util/validate.js';", ""]
    lines.append(f"export const {upper_snake(entity.name)}_PREFIX = '{entity.prefix}';")
    for field in entity.fields:
        if field.kind == "enum":
            quoted = ", ".join(f"'{c}'" for c in field.choices)
            lines.append(
                f"export const {choices_constant(entity, field)} = Object.freeze([{quoted}]);"
            )
    names = ", ".join(f"'{n}'" for n in ["id", *(f.name for f in entity.fields), "createdAt"])
    lines += [
        "",
        f"/** The fields of a {entity.name}, in the order the API shows them. */",
        f"export const {upper_snake(entity.name)}_FIELDS = Object.freeze([{names}]);",
        "",
        "/**",
        f" * {entity.doc}",
        " * Validates `input` and returns a new frozen record; `id` and `now` (a Date) come",
        " * from the service that stores it.",
        " */",
        f"export function create{title}(input, {{ id, now }}) {{",
        "  return Object.freeze({",
        "    id,",
        *(f"    {f.name}: {_expression(entity, f)}," for f in entity.fields),
        "    createdAt: now.toISOString(),",
        "  });",
        "}",
        "",
        f"/** A validated copy of `{entity.name}` with `changes`; "
        "id and createdAt never change. */",
        f"export function update{title}({entity.name}, changes) {{",
        f"  const {{ id, createdAt, ...fields }} = {{ ...{entity.name}, ...changes }};",
        f"  return create{title}(fields, "
        f"{{ id: {entity.name}.id, now: new Date({entity.name}.createdAt) }});",
        "}",
        "",
    ]
    return "\n".join(lines)
