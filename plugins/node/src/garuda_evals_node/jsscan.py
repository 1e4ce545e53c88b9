"""The tests of a JavaScript test file, found by a small scanner (no parser).

``scan`` reads a file's tokens (strings, template literals and regular expressions whole,
comments dropped) and finds its test calls: ``test(...)`` or ``it(...)`` (a test) and
``describe(...)`` or ``suite(...)`` (a group, whose callback's body is scanned the same
way). A call counts when its name starts a line at the top level or directly in a group's
body, its first argument is a string literal, and nothing else follows it on its last line.
Everything else (imports, helpers, hooks) is kept around whichever test is chosen.
``text_of`` writes the file back with only one test, its groups, and new names.

Anything the scanner cannot place is an error naming the line: a call of ``test`` or its
kin inside other code (a loop, a helper), ``test.only`` and the like, a name that is not a
string literal, unbalanced brackets.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

TESTS = frozenset({"test", "it"})
GROUPS = frozenset({"describe", "suite"})
CALLS = TESTS | GROUPS
OPENERS = {"(": ")", "[": "]", "{": "}"}
# After these a "/" starts a regular expression; after anything else it divides.
REGEX_AFTER_WORDS = frozenset(
    {"return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case"}
    | {"do", "else", "yield", "await"}
)
IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
NUMBER = re.compile(r"\d[\w.]*|\.\d[\w]*")
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
ESCAPE = re.compile(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S])")


class ScanError(ValueError):
    """A test file the scanner cannot split; the message names the line."""


@dataclass(frozen=True)
class Token:
    """One token: ``kind`` is word, number, string, template, regex or punct."""

    kind: str
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Call:
    """A test or group call: its tokens ``first``..``last`` (inclusive), its name token."""

    kind: str  # "test" or "group"
    first: int
    last: int
    name: int
    title: str
    children: tuple[Call, ...] = ()

    def leaves(self) -> Iterator[tuple[Call, ...]]:
        """Every test under this call, as the chain of calls from here down to it."""
        if self.kind == "test":
            yield (self,)
        for child in self.children:
            for chain in child.leaves():
                yield (self, *chain)


@dataclass(frozen=True)
class Scanned:
    """A scanned file: its text, tokens and top-level calls."""

    text: str
    tokens: tuple[Token, ...]
    calls: tuple[Call, ...]

    def chains(self) -> list[tuple[Call, ...]]:
        """Every test of the file, in source order, with the groups around it."""
        return [chain for call in self.calls for chain in call.leaves()]


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


class _Lexer:
    """Splits JavaScript into tokens; a template literal is one token with its ``${}``."""

    def __init__(self, text: str) -> None:
        self.text = text

    def fail(self, offset: int, what: str) -> ScanError:
        return ScanError(f"line {_line(self.text, offset)}: {what}")

    def tokens(self, at: int = 0, inside_template: bool = False) -> tuple[list[Token], int]:
        """Tokens from ``at``; inside a template's ``${``, up to its closing brace."""
        text, found, depth = self.text, [], 0
        if at == 0 and text.startswith("#!"):
            at = text.find("\n") if "\n" in text else len(text)
        while at < len(text):
            char = text[at]
            if char.isspace():
                at += 1
            elif text.startswith("//", at):
                at = text.find("\n", at) if "\n" in text[at:] else len(text)
            elif text.startswith("/*", at):
                close = text.find("*/", at + 2)
                if close < 0:
                    raise self.fail(at, "unterminated comment")
                at = close + 2
            elif char in "'\"":
                end = self._string(at, char)
                found.append(Token("string", at, end, text[at:end]))
                at = end
            elif char == "`":
                end = self._template(at)
                found.append(Token("template", at, end, text[at:end]))
                at = end
            elif char == "/" and self._regex_may_start(found):
                end = self._regex(at)
                kind = "regex" if end > at + 1 else "punct"
                found.append(Token(kind, at, end, text[at:end]))
                at = end
            elif match := IDENTIFIER.match(text, at):
                found.append(Token("word", at, match.end(), match.group()))
                at = match.end()
            elif match := NUMBER.match(text, at):
                found.append(Token("number", at, match.end(), match.group()))
                at = match.end()
            else:
                if inside_template and char == "{":
                    depth += 1
                elif inside_template and char == "}":
                    if depth == 0:
                        return found, at + 1
                    depth -= 1
                found.append(Token("punct", at, at + 1, char))
                at += 1
        if inside_template:
            raise self.fail(at, "unterminated template literal")
        return found, at

    def _string(self, at: int, quote: str) -> int:
        index = at + 1
        while index < len(self.text):
            char = self.text[index]
            if char == "\\":
                index += 2
                continue
            if char == quote:
                return index + 1
            if char == "\n":
                break
            index += 1
        raise self.fail(at, "unterminated string")

    def _template(self, at: int) -> int:
        index = at + 1
        while index < len(self.text):
            char = self.text[index]
            if char == "\\":
                index += 2
            elif char == "`":
                return index + 1
            elif self.text.startswith("${", index):
                _, index = self.tokens(index + 2, inside_template=True)
            else:
                index += 1
        raise self.fail(at, "unterminated template literal")

    @staticmethod
    def _regex_may_start(found: Sequence[Token]) -> bool:
        if not found:
            return True
        last = found[-1]
        if last.kind == "word":
            return last.text in REGEX_AFTER_WORDS
        return last.kind == "punct" and last.text not in ")]"

    def _regex(self, at: int) -> int:
        """The end of the regular expression at ``at``; ``at + 1`` when it is a division
        after all (no closing slash on the line)."""
        index, in_class = at + 1, False
        while index < len(self.text):
            char = self.text[index]
            if char == "\n":
                return at + 1
            if char == "\\":
                index += 2
                continue
            if char == "[":
                in_class = True
            elif char == "]":
                in_class = False
            elif char == "/" and not in_class:
                flags = IDENTIFIER.match(self.text, index + 1)
                return flags.end() if flags else index + 1
            index += 1
        return at + 1


def _pairs(tokens: Sequence[Token], text: str) -> dict[int, int]:
    """Each opening bracket's index -> its closing bracket's index."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for index, token in enumerate(tokens):
        if token.kind != "punct":
            continue
        if token.text in OPENERS:
            stack.append(index)
        elif token.text in ")]}":
            if not stack or OPENERS[tokens[stack[-1]].text] != token.text:
                raise ScanError(f"line {_line(text, token.start)}: unbalanced {token.text!r}")
            pairs[stack.pop()] = index
    if stack:
        raise ScanError(f"line {_line(text, tokens[stack[-1]].start)}: unclosed bracket")
    return pairs


def literal_value(token: Token) -> str:
    """The value of a string literal or a template literal without ``${}``."""
    body = token.text[1:-1]

    def one(match: re.Match[str]) -> str:
        escape = match.group(1)
        if escape.startswith("u{"):
            return chr(int(escape[2:-1], 16))
        if escape[0] in "ux" and len(escape) > 1:
            return chr(int(escape[1:], 16))
        if escape in ("\n", "\r\n"):
            return ""
        return ESCAPES.get(escape, escape)

    return ESCAPE.sub(one, body)


class _Finder:
    """Finds the test calls of a token range, recursing into groups."""

    def __init__(self, text: str, tokens: Sequence[Token]) -> None:
        self.text, self.tokens = text, tokens
        self.pairs = _pairs(tokens, text)

    def fail(self, index: int, what: str) -> ScanError:
        return ScanError(f"line {_line(self.text, self.tokens[index].start)}: {what}")

    def starts_line(self, index: int) -> bool:
        start = self.tokens[index].start
        line_start = self.text.rfind("\n", 0, start) + 1
        return index == 0 or self.tokens[index - 1].end <= line_start

    def ends_line(self, index: int) -> bool:
        following = index + 1
        if following >= len(self.tokens):
            return True
        between = self.text[self.tokens[index].end : self.tokens[following].start]
        return "\n" in between

    def is_named_call(self, index: int) -> bool:
        token = self.tokens[index]
        previous = self.tokens[index - 1] if index else None
        if token.kind != "word" or token.text not in CALLS:
            return False
        if previous is not None and previous.text in (".", "function"):
            return False  # a method, or a function of that name being declared
        return self._is(index + 1, "(")

    def is_modified_call(self, index: int) -> bool:
        """``test.only(``, ``describe.skip(`` and the like."""
        token = self.tokens[index]
        return (
            token.kind == "word"
            and token.text in CALLS
            and self._is(index + 1, ".")
            and self._is(index + 2, "only", "skip", "todo")
        )

    def calls(self, first: int, last: int) -> tuple[Call, ...]:
        """The calls in tokens ``first``..``last`` (exclusive) at their own level."""
        found, index = [], first
        while index < last:
            token = self.tokens[index]
            if self.is_named_call(index):
                found.append(self.call(index))
                index = found[-1].last + 1
            elif self.is_modified_call(index):
                word, modifier = token.text, self.tokens[index + 2].text
                raise self.fail(index, f"{word}.{modifier}() is not supported")
            elif token.kind == "punct" and token.text in OPENERS:
                self.refuse_nested(index + 1, self.pairs[index])
                index = self.pairs[index] + 1
            else:
                index += 1
        return tuple(found)

    def refuse_nested(self, first: int, last: int) -> None:
        """A test call inside other code would run in every file: an error."""
        for index in range(first, last):
            if self.is_named_call(index):
                word = self.tokens[index].text
                raise self.fail(index, f"{word}() inside other code (a loop, a helper)")

    def call(self, index: int) -> Call:
        word = self.tokens[index].text
        if not self.starts_line(index):
            raise self.fail(index, f"{word}() must start its line")
        opening = index + 1
        closing = self.pairs[opening]
        last = closing + 1 if self._is(closing + 1, ";") else closing
        if not self.ends_line(last):
            raise self.fail(last, f"nothing may follow {word}() on its line")
        name = opening + 1
        token = self.tokens[name] if name < closing else None
        if token is None or token.kind not in ("string", "template") or "${" in token.text:
            raise self.fail(index, f"the name of {word}() must be a string literal")
        if word in TESTS:
            self.refuse_nested(name + 1, closing)
            return Call("test", index, last, name, literal_value(token))
        body = self.body(opening, closing)
        if body is None:
            raise self.fail(index, f"{word}() needs a function with a body")
        children = self.calls(body + 1, self.pairs[body])
        return Call("group", index, last, name, literal_value(token), children)

    def body(self, opening: int, closing: int) -> int | None:
        """The opening brace of the group's callback: the last ``{`` at argument level."""
        braces = []
        index = opening + 1
        while index < closing:
            token = self.tokens[index]
            if token.kind == "punct" and token.text in OPENERS:
                if token.text == "{":
                    braces.append(index)
                index = self.pairs[index] + 1
            else:
                index += 1
        return braces[-1] if braces else None

    def _is(self, index: int, *texts: str) -> bool:
        return index < len(self.tokens) and self.tokens[index].text in texts


def scan(text: str) -> Scanned:
    """The tokens and test calls of ``text``; ScanError when it cannot be split."""
    tokens, _ = _Lexer(text).tokens()
    finder = _Finder(text, tokens)
    calls = finder.calls(0, len(tokens))
    scanned = Scanned(text, tuple(tokens), calls)
    if not scanned.chains():
        raise ScanError("no test() or it() call found")
    return scanned


def _dropped(calls: Sequence[Call], chain: Sequence[Call]) -> Iterator[range]:
    """Token ranges of the calls that are not on ``chain``."""
    for call in calls:
        if call in chain:
            yield from _dropped(call.children, chain)
        else:
            yield range(call.first, call.last + 1)


def text_of(
    scanned: Scanned,
    chain: Sequence[Call],
    names: Mapping[int, str],
    omit: Collection[int] = (),
) -> str:
    """The file with only the test at the end of ``chain`` and its groups; ``names`` maps
    name tokens to their new text, ``omit`` are more tokens to leave out. Comments and blank
    lines are left out, so where the test stood in its source and what was written around it
    do not show."""
    dropped = {index for span in _dropped(scanned.calls, chain) for index in span}
    dropped.update(omit)
    text, out = scanned.text, []
    previous: Token | None = None
    for index, token in enumerate(scanned.tokens):
        if index in dropped:
            continue
        if previous is not None:
            gap = text[previous.end : token.start]
            if "\n" in gap:
                line = text[text.rfind("\n", 0, token.start) + 1 : token.start]
                out.append("\n" + line[: len(line) - len(line.lstrip(" \t"))])
            elif gap:
                out.append(" ")
        out.append(names.get(index, token.text))
        previous = token
    return "".join(out) + "\n"
