"""Render ``src/entities/<name>.js`` and ``test/entities/<name>.test.js`` from an Entity."""

from __future__ import annotations

import re

from garuda_evals_node.shopkit.spec import Entity, Field

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


def _title(name: str) -> str:
    return name[0].upper() + name[1:]


def _upper(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).upper()


def choices_constant(entity: Entity, field: Field) -> str:
    """``ORDER_STATUSES`` for the choices of ``order.status``."""
    plural = "ES" if field.name.endswith("s") else "S"
    return f"{_upper(entity.name)}_{_upper(field.name)}{plural}"


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
    title = _title(entity.name)
    imports = sorted({VALIDATOR[f.kind] for f in entity.fields})
    lines = [f"import {{ {', '.join(imports)} }} from '../util/validate.js';", ""]
    lines.append(f"export const {_upper(entity.name)}_PREFIX = '{entity.prefix}';")
    for field in entity.fields:
        if field.kind == "enum":
            quoted = ", ".join(f"'{c}'" for c in field.choices)
            lines.append(f"export const {choices_constant(entity, field)} = Object.freeze([{quoted}]);")
    names = ", ".join(f"'{n}'" for n in ["id", *(f.name for f in entity.fields), "createdAt"])
    lines += [
        "",
        f"/** The fields of a {entity.name}, in the order the API shows them. */",
        f"export const {_upper(entity.name)}_FIELDS = Object.freeze([{names}]);",
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
        f"/** A validated copy of `{entity.name}` with `changes`; id and createdAt never change. */",
        f"export function update{title}({entity.name}, changes) {{",
        f"  const {{ id, createdAt, ...fields }} = {{ ...{entity.name}, ...changes }};",
        f"  return create{title}(fields, {{ id: {entity.name}.id, now: new Date({entity.name}.createdAt) }});",
        "}",
        "",
    ]
    return "\n".join(lines)


def _default_js(field: Field) -> str:
    if field.kind in OPTIONAL_KINDS:
        return "null"
    return field.default or "undefined"


def render_entity_test(entity: Entity) -> str:
    """The entity's test: every field, required fields, defaults, choices and update."""
    title = _title(entity.name)
    upper = _upper(entity.name)
    record_id = f"{entity.prefix}_0001"
    required = [f for f in entity.fields if f.default is None and f.kind not in OPTIONAL_KINDS]
    optional = [f for f in entity.fields if f not in required]
    samples = "\n".join(f"  {f.name}: {f.sample}," for f in entity.fields)
    lines = [
        "import { test } from 'node:test';",
        "import assert from 'node:assert/strict';",
        f"import {{ create{title}, update{title}, {upper}_FIELDS }} from '../../src/entities/{entity.name}.js';",
        "",
        "const now = new Date('2024-01-01T00:00:00Z');",
        f"const valid = () => ({{\n{samples}\n}});",
        f"const make = (input) => create{title}(input, {{ id: '{record_id}', now }});",
        "",
        f"test('a valid {entity.name} is frozen and has every field', () => {{",
        f"  const record = make(valid());",
        f"  assert.deepEqual(Object.keys(record), {upper}_FIELDS);",
        "  assert.ok(Object.isFrozen(record));",
        f"  assert.equal(record.id, '{record_id}');",
        "  assert.equal(record.createdAt, '2024-01-01T00:00:00.000Z');",
        "});",
        "",
        f"for (const field of [{', '.join(repr(f.name) for f in required)}]) {{",
        "  test(`${field} is required`, () => {",
        "    const input = valid();",
        "    delete input[field];",
        "    assert.throws(() => make(input), { name: 'ValidationError', field });",
        "  });",
        "}",
    ]
    if optional:
        deletes = "\n".join(f"  delete input.{f.name};" for f in optional)
        checks = "\n".join(
            f"  assert.deepEqual(record.{f.name}, {_default_js(f)});" for f in optional
        )
        lines += [
            "",
            "test('optional fields have defaults', () => {",
            "  const input = valid();",
            deletes,
            "  const record = make(input);",
            checks,
            "});",
        ]
    for field in entity.fields:
        if field.kind == "enum":
            lines += [
                "",
                f"test('{field.name} must be one of its choices', () => {{",
                f"  assert.throws(() => make({{ ...valid(), {field.name}: 'nope' }}), {{ field: '{field.name}' }});",
                "});",
            ]
    first = required[0].name
    lines += [
        "",
        "test('update validates and keeps id and createdAt', () => {",
        "  const record = make(valid());",
        f"  assert.deepEqual(update{title}(record, {{}}), record);",
        f"  assert.throws(() => update{title}(record, {{ {first}: null }}), {{ field: '{first}' }});",
        "});",
        "",
    ]
    return "\n".join(lines)
