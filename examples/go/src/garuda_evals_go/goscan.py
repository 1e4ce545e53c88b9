"""A small reader of Go source: its tokens and the top-level declarations they make.

Enough of the language to split a test file into its declarations: comments, interpreted,
raw and rune literals, identifiers, brackets, and Go's automatic semicolons (a newline
ends a statement after an identifier, a literal, ``)``, ``]``, ``}``, ``++``, ``--``,
``return``, ``break``, ``continue`` or ``fallthrough``), so a declaration ends where the
compiler says it does, whatever a raw string holds at the start of a line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Kind = Literal["ident", "literal", "comment", "op", "semicolon"]
DECLARATIONS = frozenset({"package", "import", "func", "type", "var", "const"})
ENDS_STATEMENT = frozenset(
    {"break", "continue", "fallthrough", "return", ")", "]", "}", "++", "--"}
)
OPENING, CLOSING = "([{", ")]}"
IDENT = re.compile(r"[^\W\d]\w*")
NUMBER = re.compile(r"\.?\d(?:[eEpP][+-]|[\w.])*")
OPERATORS = ("...", "++", "--")


class GoSyntaxError(ValueError):
    """Source this reader cannot split (an unclosed literal, comment or bracket)."""


@dataclass(frozen=True)
class Token:
    """One token: ``start``/``end`` are offsets in the source; ``depth`` counts the brackets
    open around it (a bracket itself counts the ones outside it)."""

    kind: Kind
    text: str
    start: int
    end: int
    depth: int


@dataclass(frozen=True)
class Import:
    """One import: its path and the name it was given (``None``: none; ``_``; ``.``)."""

    name: str | None
    path: str


@dataclass(frozen=True)
class Decl:
    """A top-level ``func``, ``type``, ``var`` or ``const`` declaration.

    ``names`` are the package-level names it declares (a method declares none). A function
    without a receiver has ``function`` set, and ``parameter`` is its first parameter's name.
    """

    keyword: str
    start: int
    end: int
    names: tuple[str, ...]
    function: str | None = None
    parameter: str | None = None


@dataclass(frozen=True)
class GoFile:
    """A Go file read into its package clause, imports and other declarations."""

    text: str
    tokens: tuple[Token, ...]
    package: str
    imports: tuple[Import, ...]
    decls: tuple[Decl, ...]


def _literal_end(text: str, start: int) -> int:
    """The offset after the string or rune literal that starts at ``start``."""
    quote = text[start]
    if quote == "`":
        end = text.find("`", start + 1)
        if end < 0:
            raise GoSyntaxError(f"a raw string at offset {start} is not closed")
        return end + 1
    index = start + 1
    while index < len(text) and text[index] not in (quote, "\n"):
        index += 2 if text[index] == "\\" else 1
    if index >= len(text) or text[index] != quote:
        raise GoSyntaxError(f"a literal at offset {start} is not closed on its line")
    return index + 1


def _comment_end(text: str, start: int) -> int:
    if text.startswith("//", start):
        end = text.find("\n", start)
        return len(text) if end < 0 else end
    end = text.find("*/", start + 2)
    if end < 0:
        raise GoSyntaxError(f"a comment at offset {start} is not closed")
    return end + 2


def _ends_statement(token: Token | None) -> bool:
    return token is not None and (
        token.kind in ("ident", "literal") or token.text in ENDS_STATEMENT
    )


def tokens(text: str) -> tuple[Token, ...]:
    """The tokens of ``text``, with the semicolons Go inserts at the ends of lines."""
    found: list[Token] = []
    last: Token | None = None
    depth, index = 0, 0

    def newline(at: int) -> None:
        nonlocal last
        if _ends_statement(last):
            last = Token("semicolon", "", at, at, depth)
            found.append(last)

    while index < len(text):
        char = text[index]
        if char == "\n":
            newline(index)
            index += 1
            continue
        if char in " \t\r\ufeff":
            index += 1
            continue
        if text.startswith(("//", "/*"), index):
            end = _comment_end(text, index)
            found.append(Token("comment", text[index:end], index, end, depth))
            if "\n" in text[index:end] or end == len(text):
                newline(end)
            index = end
            continue
        if char in "\"'`":
            end = _literal_end(text, index)
            kind: Kind = "literal"
        elif word := IDENT.match(text, index):
            end, kind = word.end(), "ident"
        elif number := NUMBER.match(text, index):
            end, kind = number.end(), "literal"
        else:
            operator = next((op for op in OPERATORS if text.startswith(op, index)), char)
            end, kind = index + len(operator), "op"
        token_text = text[index:end]
        if token_text in CLOSING:
            depth -= 1
            if depth < 0:
                raise GoSyntaxError(f"{token_text!r} at offset {index} closes nothing")
        last = Token("semicolon" if token_text == ";" else kind, token_text, index, end, depth)
        found.append(last)
        if token_text in OPENING:
            depth += 1
        index = end
    if depth:
        raise GoSyntaxError("a bracket is not closed at the end of the file")
    newline(len(text))
    return tuple(found)


def statements(code: list[Token], depth: int) -> list[list[Token]]:
    """``code`` (no comments) split at the semicolons at ``depth``; empty ones dropped."""
    found: list[list[Token]] = [[]]
    for token in code:
        if token.kind == "semicolon" and token.depth == depth:
            found.append([])
        else:
            found[-1].append(token)
    return [statement for statement in found if statement]


def _specs(statement: list[Token]) -> list[list[Token]]:
    """The specs of an ``import``/``type``/``var``/``const`` statement (grouped or not)."""
    rest = statement[1:]
    if rest and rest[0].text == "(":
        return statements(rest[1:-1], rest[0].depth + 1)
    return [rest]


def _declared(keyword: str, spec: list[Token]) -> list[str]:
    """The names a ``type``, ``var`` or ``const`` spec declares."""
    if keyword == "type":
        return [spec[0].text] if spec and spec[0].kind == "ident" else []
    names: list[str] = []
    for index in range(0, len(spec), 2):
        if spec[index].kind != "ident":
            break
        names.append(spec[index].text)
        if index + 1 >= len(spec) or spec[index + 1].text != ",":
            break
    return names


def _import(spec: list[Token]) -> Import:
    if not spec or spec[-1].kind != "literal" or len(spec) > 2:
        raise GoSyntaxError("an import is a name (optional) and a quoted path")
    name = spec[0].text if len(spec) == 2 else None
    return Import(name, spec[-1].text[1:-1])


def _function(statement: list[Token]) -> Decl:
    """A ``func`` declaration: a method (a receiver in brackets first) declares no name."""
    start, end = statement[0].start, statement[-1].end
    if len(statement) > 1 and statement[1].text == "(":
        return Decl("func", start, end, ())
    name = statement[1].text if len(statement) > 1 else ""
    after = statement[2:]
    if after and after[0].text == "[":  # type parameters
        closing = next(i for i, t in enumerate(after) if t.text == "]" and t.depth == 0)
        after = after[closing + 1 :]
    parameter = after[1].text if len(after) > 2 and after[1].kind == "ident" else None
    return Decl("func", start, end, (name,), function=name, parameter=parameter)


def read_go(text: str) -> GoFile:
    """``text`` read into its package clause, imports and declarations, in source order."""
    every = tokens(text)
    code = [token for token in every if token.kind != "comment"]
    package, imports, decls = "", [], []
    for statement in statements(code, 0):
        keyword = statement[0].text
        if keyword not in DECLARATIONS:
            raise GoSyntaxError(f"{keyword!r} at the top level starts no declaration")
        if keyword == "package":
            package = statement[1].text if len(statement) > 1 else ""
        elif keyword == "import":
            imports += [_import(spec) for spec in _specs(statement)]
        elif keyword == "func":
            decls.append(_function(statement))
        else:
            names = [name for spec in _specs(statement) for name in _declared(keyword, spec)]
            start, end = statement[0].start, statement[-1].end
            decls.append(Decl(keyword, start, end, tuple(n for n in names if n != "_")))
    if not package:
        raise GoSyntaxError("no package clause")
    return GoFile(text, every, package, tuple(imports), tuple(decls))


def rewrite(source: GoFile, start: int, end: int, names: dict[str, str]) -> tuple[str, set[str]]:
    """The text of ``source`` from ``start`` to ``end`` without comments, every identifier
    in ``names`` that is not a selector (after a ``.``) renamed; and the names used as
    qualifiers (an identifier before a ``.``), which say which imports the text uses."""
    inside = [token for token in source.tokens if start <= token.start and token.end <= end]
    parts: list[str] = []
    qualifiers: set[str] = set()
    at = start
    previous: Token | None = None
    for index, token in enumerate(inside):
        parts.append(source.text[at : token.start])
        at = token.end
        if token.kind == "comment":
            parts.append("\n" if "\n" in token.text else "")
            continue
        following = inside[index + 1] if index + 1 < len(inside) else None
        selector = previous is not None and previous.text == "."
        if token.kind == "ident" and not selector:
            if following is not None and following.text == ".":
                qualifiers.add(token.text)
            parts.append(names.get(token.text, token.text))
        else:
            parts.append(token.text)
        previous = token
    parts.append(source.text[at:end])
    lines = "".join(parts).split("\n")
    return "\n".join(line.rstrip() for line in lines), qualifiers
