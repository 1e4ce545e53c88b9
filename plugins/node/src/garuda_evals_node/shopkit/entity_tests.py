"""Render ``test/entities/<name>.test.js`` from an Entity."""

from __future__ import annotations

from garuda_evals_node.shopkit.entities import OPTIONAL_KINDS, title_case, upper_snake
from garuda_evals_node.shopkit.model import Entity, Field


def _default_js(field: Field) -> str:
    if field.kind in OPTIONAL_KINDS:
        return "null"
    return field.default or "undefined"


def render_entity_test(entity: Entity) -> str:
    """The entity's test: every field, required fields, defaults, choices and update."""
    title = title_case(entity.name)
    upper = upper_snake(entity.name)
    record_id = f"{entity.prefix}_0001"
    required = [f for f in entity.fields if f.default is None and f.kind not in OPTIONAL_KINDS]
    optional = [f for f in entity.fields if f not in required]
    samples = "\n".join(f"  {f.name}: {f.sample}," for f in entity.fields)
    lines = [
        "import { test } from 'node:test';",
        "import assert from 'node:assert/strict';",
        f"import {{ create{title}, update{title}, {upper}_FIELDS }} "
        f"from '../../src/entities/{entity.name}.js';",
        "",
        "const now = new Date('2024-01-01T00:00:00Z');",
        f"const valid = () => ({{\n{samples}\n}});",
        f"const make = (input) => create{title}(input, {{ id: '{record_id}', now }});",
        "",
        f"test('a valid {entity.name} is frozen and has every field', () => {{",
        "  const record = make(valid());",
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
                f"  assert.throws(() => make({{ ...valid(), {field.name}: 'nope' }}), "
                f"{{ field: '{field.name}' }});",
                "});",
            ]
    first = required[0].name
    lines += [
        "",
        "test('update validates and keeps id and createdAt', () => {",
        "  const record = make(valid());",
        f"  assert.deepEqual(update{title}(record, {{}}), record);",
        f"  assert.throws(() => update{title}(record, {{ {first}: null }}), "
        f"{{ field: '{first}' }});",
        "});",
        "",
    ]
    return "\n".join(lines)
