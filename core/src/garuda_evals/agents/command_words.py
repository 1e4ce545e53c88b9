"""The words of the command agent's command as bash reads them, for its checks only: the
command always runs unchanged."""

from __future__ import annotations

import re
import shlex

BLANKS = frozenset(" \t\n")
OPERATORS = frozenset(";&|()<>")
HEREDOC = re.compile(r"<<(-?)[ \t]*(?:'([^'\n]*)'|\"([^\"\n]*)\"|\\?([^\s;&|()<>'\"]+))")


def _heredoc_end(command: str, line_end: int, delimiters: list[tuple[str, bool]]) -> int:
    """Where the text after the heredoc bodies that begin after ``line_end`` resumes."""
    index = line_end
    for delimiter, tabs in delimiters:
        while index < len(command):
            end = command.find("\n", index + 1)
            end = len(command) if end < 0 else end
            line = command[index + 1 : end]
            index = end
            if (line.lstrip("\t") if tabs else line) == delimiter:
                break
    return index


def code_text(command: str) -> str:
    """``command`` without its comments and heredoc bodies: a comment runs from a ``#`` that
    begins a word outside quotes to the end of its line, as bash reads it (``a#b``, ``'#'`` and
    ``$#`` are not comments); a heredoc body is data, not words of the command."""
    kept: list[str] = []
    quote = ""
    word_start = True
    pending: list[tuple[str, bool]] = []
    index = 0
    while index < len(command):
        char = command[index]
        if quote:
            if char == "\\" and quote == '"':
                kept.append(command[index : index + 2])
                index += 2
                continue
            quote = "" if char == quote else quote
        elif char == "#" and word_start:
            end = command.find("\n", index)
            index = len(command) if end < 0 else end
            continue
        elif char == "\\":
            kept.append(command[index : index + 2])
            index += 2
            word_start = False
            continue
        elif char in "'\"":
            quote = char
        elif char == "\n" and pending:
            kept.append(char)
            index = _heredoc_end(command, index, pending) + 1
            pending = []
            word_start = True
            continue
        elif command.startswith("<<", index) and not command.startswith("<<<", index):
            found = HEREDOC.match(command, index)
            if found:
                delimiter = next(group for group in found.groups()[1:] if group is not None)
                pending.append((delimiter, found.group(1) == "-"))
                kept.append(found.group(0))
                index = found.end()
                word_start = False
                continue
        kept.append(char)
        word_start = not quote and (char in BLANKS or char in OPERATORS)
        index += 1
    return "".join(kept)


def shell_words(command: str) -> list[str] | None:
    """The command's words without its comments and heredoc bodies, quotes removed; None when
    its quoting is not one ``shlex`` can follow."""
    try:
        return shlex.split(code_text(command))
    except ValueError:
        return None
