"""Test files of different code around their tests as one file, so that node starts one
process for all of them.

``node --test`` runs every test file in a process of its own (about 100 ms of CPU each).
Merged, the files' static import declarations stand once at the top (named imports of one
module joined) and each file's other code, with its tests, sits in a block of its own, so
its constants, helpers and groups stay its own. Every block's code then runs in one
process, so a source shares a file only when its top level (``quiet``), beside its
imports and tests, does nothing when it runs: no call (a hook such as ``beforeEach`` there
would run around every test of the merged file, ``register`` would stack loader hooks), no
``new``, no ``await``, no ``globalThis`` or ``process``, no export (``require`` of a named
module is the one call allowed: CommonJS's import), and imports of the forms joined here
(not import attributes or string names). Declarations of values and functions pass.
``dynamic`` writes a source's imports as ``await import(...)``, for the runner's canary file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from garuda_evals_node.jsscan import OPENERS, Scanned, Token, literal_value

EFFECTS = frozenset({"new", "await", "globalThis", "process", "export", "eval"})
Binding = tuple[str, str]
"""What a local name is bound to: the module's specifier and the name imported from it
(``default`` or ``*`` for a namespace)."""


@dataclass(frozen=True)
class Import:
    """One static import declaration: its module and the names it binds."""

    specifier: str  # the string token as written
    bindings: Mapping[str, Binding]


@dataclass(frozen=True)
class Shareable:
    """A scanned source that can share a file: its imports and their tokens (left out of
    each test's block)."""

    imports: tuple[Import, ...]
    tokens: frozenset[int]


def _top_level(tokens: Sequence[Token]) -> Iterable[int]:
    """Indices of the tokens outside every bracket."""
    depth = 0
    for index, token in enumerate(tokens):
        if token.kind == "punct" and token.text in ")]}":
            depth -= 1
        elif depth == 0:
            yield index
        if token.kind == "punct" and token.text in OPENERS:
            depth += 1


def _clause(tokens: Sequence[Token], specifier: str) -> dict[str, Binding] | None:
    """The bindings of an import clause (the tokens between ``import`` and ``from``)."""
    module = literal_value(Token("string", 0, 0, specifier))
    bound: dict[str, Binding] = {}
    words = [token.text for token in tokens]
    at = 0
    if at < len(words) and tokens[at].kind == "word" and words[at] not in ("type", "typeof"):
        bound[words[at]] = (module, "default")
        at += 1
        if at < len(words) and words[at] == ",":
            at += 1
    if words[at : at + 2] == ["*", "as"] and at + 3 == len(words):
        bound[words[at + 2]] = (module, "*")
        return bound
    if at < len(words) and words[at] == "{" and words[-1] == "}":
        names = words[at + 1 : -1]
        for entry in " ".join(names).split(","):
            parts = entry.split()
            if not parts:
                continue
            if len(parts) == 1 and not parts[0].startswith(("'", '"')):
                bound[parts[0]] = (module, parts[0])
            elif len(parts) == 3 and parts[1] == "as" and not parts[0].startswith(("'", '"')):
                bound[parts[2]] = (module, parts[0])
            else:
                return None
        return bound
    return bound if at == len(words) else None


def _declaration(tokens: Sequence[Token], start: int) -> tuple[Import, int] | None:
    """The import declaration at ``start`` and its last token, or None for a form not joined."""
    after = tokens[start + 1] if start + 1 < len(tokens) else None
    if after is None or after.text in ("(", "."):
        return None  # an import() call or import.meta: code, not a declaration
    if after.kind == "string":
        end, imported = start + 1, Import(after.text, {})
    else:
        ends = [
            i
            for i in range(start + 1, len(tokens) - 1)
            if tokens[i].text == "from" and tokens[i + 1].kind == "string"
        ]
        if not ends:
            return None
        bindings = _clause(tokens[start + 1 : ends[0]], tokens[ends[0] + 1].text)
        if bindings is None:
            return None
        end, imported = ends[0] + 1, Import(tokens[ends[0] + 1].text, bindings)
    if end + 1 < len(tokens) and tokens[end + 1].text in ("with", "assert"):
        return None  # import attributes
    if end + 1 < len(tokens) and tokens[end + 1].text == ";":
        end += 1
    return imported, end


def declarations(scanned: Scanned) -> Shareable | None:
    """``scanned``'s static import declarations, or None for a form not joined here (or an
    export, which no merged file may hold)."""
    tokens = scanned.tokens
    imports: list[Import] = []
    in_tests = {index for call in scanned.calls for index in range(call.first, call.last + 1)}
    in_imports: set[int] = set()
    for index in _top_level(tokens):
        if index in in_tests or index in in_imports:
            continue
        token = tokens[index]
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if token.text == "export":
            return None
        if token.text == "import" and following is not None and following.text not in ("(", "."):
            found = _declaration(tokens, index)
            if found is None:
                return None
            imports.append(found[0])
            in_imports.update(range(index, found[1] + 1))
    return Shareable(tuple(imports), frozenset(in_imports))


def quiet(scanned: Scanned, imports: Shareable) -> bool:
    """Whether ``scanned``'s top level, beside ``imports`` and its tests, does nothing when
    it runs (see the module)."""
    tokens = scanned.tokens
    in_tests = {index for call in scanned.calls for index in range(call.first, call.last + 1)}
    for index in _top_level(tokens):
        if index in in_tests or index in imports.tokens:
            continue
        token = tokens[index]
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        declared = index > 0 and tokens[index - 1].text == "function"
        required = (
            token.text == "require"
            and index + 2 < len(tokens)
            and tokens[index + 2].kind == "string"
        )
        called = following is not None and (following.text == "(" or following.kind == "template")
        if token.text in EFFECTS or (
            token.kind == "word" and called and not (declared or required)
        ):
            return False
    return True


def dynamic(imports: Shareable) -> str:
    """``imports`` as ``await import(...)`` declarations in a block: a module that cannot be
    loaded leaves its names undefined instead of stopping the file."""
    lines = []
    for declaration in imports.imports:
        loaded = f"await import({declaration.specifier}).catch(() => ({{}}))"
        names = [(local, name) for local, (_, name) in declaration.bindings.items()]
        spaces = [local for local, name in names if name == "*"]
        lines += [f"const {local} = {loaded};" for local in spaces]
        fields = [
            local if local == name else f"{name}: {local}" for local, name in names if name != "*"
        ]
        if fields:
            lines.append(f"const {{ {', '.join(fields)} }} = {loaded};")
        elif not names:
            lines.append(f"{loaded};")
    return "".join(line + "\n" for line in lines)


@dataclass
class MergedFile:
    """A file being filled: its imports so far, its blocks, the names used at its top level."""

    path: str
    bound: dict[str, Binding] = field(default_factory=dict)
    imports: list[Import] = field(default_factory=list)
    blocks: list[str] = field(default_factory=list)
    titles: set[str] = field(default_factory=set)

    def fits(self, source: Shareable) -> bool:
        """Whether every name ``source`` imports is free here or bound to the same thing."""
        return all(
            self.bound.get(local, binding) == binding
            for declaration in source.imports
            for local, binding in declaration.bindings.items()
        )

    def add(self, source: Shareable, block: str) -> None:
        """Add ``block`` (code of a source whose imports are ``source``'s) in braces."""
        for declaration in source.imports:
            self.bound.update(declaration.bindings)
            self.imports.append(declaration)
        self.blocks.append(block)

    def text(self) -> str:
        """The file: the imports, joined per module, then the blocks."""
        return _imports_text(self.imports) + "".join(f"{{\n{b}}}\n" for b in self.blocks)


def _imports_text(imports: Sequence[Import]) -> str:
    """One line per form and module, modules in the order first imported."""
    lines: dict[tuple[str, str], None] = {}
    named: dict[str, dict[str, str]] = {}
    written: dict[str, str] = {}
    for declaration in imports:
        module = literal_value(Token("string", 0, 0, declaration.specifier))
        spec = written.setdefault(module, declaration.specifier)
        if not declaration.bindings:
            lines.setdefault((module, f"import {spec};"))
        for local, (_, name) in declaration.bindings.items():
            if name == "default":
                lines.setdefault((module, f"import {local} from {spec};"))
            elif name == "*":
                lines.setdefault((module, f"import * as {local} from {spec};"))
            else:
                named.setdefault(module, {})[local] = name
                lines.setdefault((module, "{named}"))
    out = []
    for module, line in lines:
        if line == "{named}":
            entries = (n if n == local else f"{n} as {local}" for local, n in named[module].items())
            line = f"import {{ {', '.join(entries)} }} from {written[module]};"
        out.append(line + "\n")
    return "".join(out)
