"""Plugins reach core only through ``garuda_evals.api``, and every name there resolves."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import garuda_evals.api as api

REPO = Path(__file__).resolve().parents[1]
ALLOWED = {"garuda_evals.api"}


def _core_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module]
        elif isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        else:
            continue
        for module in modules:
            if module.split(".")[0] == "garuda_evals" and module not in ALLOWED:
                found.append(f"{path.relative_to(REPO)}:{node.lineno}: {module}")
    return found


def test_plugins_import_core_only_through_the_api() -> None:
    offending = [
        line
        for path in sorted(
            [*REPO.glob("plugins/*/src/**/*.py"), *REPO.glob("examples/*/src/**/*.py")]
        )
        if "suite_data" not in path.parts
        for line in _core_imports(path)
    ]
    assert offending == []


def test_every_public_name_resolves() -> None:
    for name in api.__all__:
        assert getattr(api, name) is not None, name


def test_the_api_loads_nothing_heavy_until_used() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from garuda_evals.api import hookimpl, SuiteRecord, Option; "
        "print(sorted(m for m in ('pydantic', 'anyio') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stderr
    assert importlib.import_module("garuda_evals.api") is api
