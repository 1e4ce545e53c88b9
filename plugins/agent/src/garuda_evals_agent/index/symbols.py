"""Symbols of one source file: Python with ``ast``, JavaScript/TypeScript/Java with tree-sitter."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any


@dataclass(frozen=True)
class Symbol:
    """A function, class, method (or interface, enum, record, type) with its 1-based line."""

    name: str
    kind: str
    path: str
    line: int
    container: str | None = None

    @property
    def qualified(self) -> str:
        """``Class.method`` for members, else the name."""
        return f"{self.container}.{self.name}" if self.container else self.name


def python_symbols(path: str, source: str) -> list[Symbol]:
    """Top-level functions and classes, and the methods of classes (nested classes too)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    return list(_python_body(path, tree.body, None))


def _python_body(path: str, body: list[ast.stmt], container: str | None) -> Iterator[Symbol]:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            kind = "method" if container else "function"
            yield Symbol(node.name, kind, path, node.lineno, container)
        elif isinstance(node, ast.ClassDef):
            yield Symbol(node.name, "class", path, node.lineno, container)
            inner = f"{container}.{node.name}" if container else node.name
            yield from _python_body(path, node.body, inner)


# tree-sitter node types → symbol kinds, for JavaScript, TypeScript and Java
_TYPES = {
    "function_declaration": "function",
    "generator_function_declaration": "function",
    "class_declaration": "class",
    "abstract_class_declaration": "class",
    "interface_declaration": "interface",
    "enum_declaration": "enum",
    "record_declaration": "record",
    "type_alias_declaration": "type",
    "method_definition": "method",
    "method_declaration": "method",
    "constructor_declaration": "method",
    "abstract_method_signature": "method",
}
_CONTAINERS = frozenset(
    {
        "class_declaration",
        "abstract_class_declaration",
        "interface_declaration",
        "enum_declaration",
        "record_declaration",
        "class",
    }
)
_FUNCTION_VALUES = frozenset(
    {"arrow_function", "function_expression", "function", "generator_function"}
)


@cache
def _parser(language: str) -> Any:
    import tree_sitter

    loaders: dict[str, Callable[[], Any]] = {
        "javascript": lambda: __import__("tree_sitter_javascript").language(),
        "typescript": lambda: __import__("tree_sitter_typescript").language_typescript(),
        "tsx": lambda: __import__("tree_sitter_typescript").language_tsx(),
        "java": lambda: __import__("tree_sitter_java").language(),
    }
    return tree_sitter.Parser(tree_sitter.Language(loaders[language]()))


def tree_sitter_symbols(path: str, source: str, language: str) -> list[Symbol]:
    """Declarations of ``language`` (javascript, typescript, tsx, java) found by tree-sitter."""
    tree = _parser(language).parse(source.encode("utf-8"))
    found: list[Symbol] = []
    _walk(tree.root_node, path, None, found)
    return found


def _name(node: Any) -> str | None:
    named = node.child_by_field_name("name")
    return named.text.decode("utf-8", "replace") if named is not None else None


def _walk(node: Any, path: str, container: str | None, found: list[Symbol]) -> None:
    kind = _TYPES.get(node.type)
    name = _name(node) if kind else None
    if kind and name:
        if kind == "method" and container is None:
            kind = "function"
        found.append(Symbol(name, kind, path, node.start_point[0] + 1, container))
    elif node.type == "variable_declarator":
        value = node.child_by_field_name("value")
        name = _name(node)
        if value is not None and value.type in _FUNCTION_VALUES and name:
            found.append(Symbol(name, "function", path, node.start_point[0] + 1, container))
    inner = container
    if node.type in _CONTAINERS and name:
        inner = f"{container}.{name}" if container else name
    for child in node.children:
        _walk(child, path, inner, found)


LANGUAGES = {
    ".py": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".java": "java",
}


def file_symbols(path: str, source: str, language: str) -> list[Symbol]:
    """The symbols of one file in ``language``."""
    if language == "python":
        return python_symbols(path, source)
    return tree_sitter_symbols(path, source, language)
