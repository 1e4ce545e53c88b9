"""shopkit: a deterministic generator of a realistic JavaScript shop backend (~107 files).

``generate(spec)`` returns ``path -> text``. Hand-written modules live in ``skeleton/``;
entities, their tests and the demo data are rendered from ``ShopkitSpec``. The same spec
always gives the same bytes.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path

from garuda_evals_node.shopkit.entities import render_entity
from garuda_evals_node.shopkit.entity_tests import render_entity_test
from garuda_evals_node.shopkit.fixtures import render_fixtures
from garuda_evals_node.shopkit.spec import ShopkitSpec

__all__ = ["NAME_TOKEN", "ShopkitSpec", "generate", "write"]

NAME_TOKEN = "$NAME$"
"""Stands for the customer's name field in skeleton and entity text."""


@cache
def _skeleton() -> tuple[tuple[str, str], ...]:
    root = Path(str(files("garuda_evals_node.shopkit") / "skeleton"))
    return tuple(
        (path.relative_to(root).as_posix(), path.read_text(encoding="utf-8"))
        for path in sorted(root.rglob("*"))
        if path.is_file()
    )


@cache
def generate(spec: ShopkitSpec = ShopkitSpec()) -> dict[str, str]:  # noqa: B008 - frozen
    """Every file of shopkit for ``spec``, sorted by path."""
    found: dict[str, str] = dict(_skeleton())
    for entity in spec.entities:
        found[f"src/entities/{entity.name}.js"] = render_entity(entity)
        found[f"test/entities/{entity.name}.test.js"] = render_entity_test(entity)
    found.update(render_fixtures(spec))
    result: dict[str, str] = {}
    for path in sorted(found):
        field = spec.test_name_field if path.startswith("test/") else spec.customer_name_field
        result[path] = found[path].replace(NAME_TOKEN, field)
    return result


def write(root: Path, spec: ShopkitSpec = ShopkitSpec()) -> list[str]:  # noqa: B008 - frozen
    """Write shopkit under ``root``; return the paths written."""
    written = []
    for relative, text in generate(spec).items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written.append(relative)
    return written
