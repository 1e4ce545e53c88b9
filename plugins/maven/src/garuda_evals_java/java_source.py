"""Java source text read just far enough to cut it into members: comments and literals
told apart from code, and brackets matched.

``views`` gives two texts of the source's length: ``code`` is the source with its comments
blanked (newlines kept), ``mask`` is ``code`` with the contents of every string, text block
and char literal blanked too, so a search in ``mask`` never matches inside a literal, and an
index found there cuts ``code`` and the source at the same place. javac reads unicode escapes (``\\u0022``) before anything
else; this reader does not, so a source that holds one is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

OPENING = {"(": ")", "[": "]", "{": "}"}
CLOSING = {value: key for key, value in OPENING.items()}
UNICODE_ESCAPE = re.compile(r"\\u+[0-9a-fA-F]{4}")


class JavaSourceError(ValueError):
    """Text that this reader cannot cut (an unclosed comment, literal or bracket)."""


@dataclass(frozen=True)
class Views:
    """``code`` and ``mask`` of one ``source`` (see the module's docstring): all three the
    same length, so an index in one is the same place in the others."""

    code: str
    mask: str
    source: str

    def cut(self, start: int, end: int) -> Views:
        """The three texts from ``start`` to ``end``."""
        return Views(self.code[start:end], self.mask[start:end], self.source[start:end])

    def tidy(self) -> str:
        """``code`` without the lines that held only comments, and without trailing spaces
        (javac strips them from text blocks too)."""
        lines = zip(self.source.split("\n"), self.code.split("\n"), strict=True)
        return "\n".join(
            code.rstrip() for source, code in lines if code.strip() or not source.strip()
        )


def _blank(text: str) -> str:
    return "".join("\n" if char == "\n" else " " for char in text)


def _literal_end(source: str, start: int, quote: str) -> int:
    """The index just past the literal that opens at ``start`` (``"``, ``'`` or ``\"\"\"``)."""
    index = start + len(quote)
    while index < len(source):
        if source[index] == "\\":
            index += 2
            continue
        if source.startswith(quote, index):
            return index + len(quote)
        if source[index] == "\n" and quote != '"""':
            break
        index += 1
    raise JavaSourceError(f"unclosed literal on line {source.count(chr(10), 0, start) + 1}")


def _pieces(source: str) -> tuple[list[str], list[str]]:
    """``code`` and ``mask`` piece by piece; a comment is blanked in both, newlines kept."""
    code: list[str] = []
    mask: list[str] = []
    index = 0
    while index < len(source):
        if source.startswith("//", index):
            end = source.find("\n", index)
            end = len(source) if end < 0 else end
            code.append(_blank(source[index:end]))
            mask.append(code[-1])
        elif source.startswith("/*", index):
            end = source.find("*/", index + 2)
            if end < 0:
                line = source.count("\n", 0, index) + 1
                raise JavaSourceError(f"unclosed comment on line {line}")
            end += 2
            code.append(_blank(source[index:end]))
            mask.append(code[-1])
        elif source[index] in "\"'":
            quote = '"""' if source.startswith('"""', index) else source[index]
            end = _literal_end(source, index, quote)
            code.append(source[index:end])
            mask.append(f"{quote}{_blank(source[index + len(quote) : end - len(quote)])}{quote}")
        else:
            end = index + 1
            code.append(source[index])
            mask.append(source[index])
        index = end
    return code, mask


def views(source: str) -> Views:
    """``code`` and ``mask`` of ``source``; ``JavaSourceError`` names the line of a unicode
    escape or an unclosed comment or literal."""
    found = UNICODE_ESCAPE.search(source)
    if found:
        line = source.count("\n", 0, found.start()) + 1
        raise JavaSourceError(f"a unicode escape ({found.group()}) on line {line}")
    code, mask = _pieces(source)
    return Views("".join(code), "".join(mask), source)


def matching(mask: str, start: int) -> int:
    """The index of the bracket that closes the one at ``start`` in ``mask``."""
    stack: list[str] = []
    for index in range(start, len(mask)):
        char = mask[index]
        if char in OPENING:
            stack.append(OPENING[char])
        elif char in CLOSING:
            if not stack or stack.pop() != char:
                line = mask.count("\n", 0, index) + 1
                raise JavaSourceError(f"an unbalanced {char!r} on line {line}")
            if not stack:
                return index
    line = mask.count("\n", 0, start) + 1
    raise JavaSourceError(f"an unclosed {mask[start]!r} on line {line}")


def joined(parts: list[Views]) -> Views:
    """The views of ``parts`` one after the other."""
    return Views(
        "".join(part.code for part in parts),
        "".join(part.mask for part in parts),
        "".join(part.source for part in parts),
    )


def spliced(views: Views, start: int, end: int, text: str) -> Views:
    """``views`` with ``start`` to ``end`` replaced by ``text`` (code, in all three)."""
    return joined([views.cut(0, start), Views(text, text, text), views.cut(end, len(views.mask))])


def renamed(views: Views, old: str, new: str) -> Views:
    """Every identifier ``old`` outside comments and literals renamed to ``new``."""
    pattern = re.compile(rf"(?<![\w$]){re.escape(old)}(?![\w$])")
    parts: list[Views] = []
    last = 0
    for found in pattern.finditer(views.mask):
        parts += [views.cut(last, found.start()), Views(new, new, new)]
        last = found.end()
    parts.append(views.cut(last, len(views.mask)))
    return joined(parts)
