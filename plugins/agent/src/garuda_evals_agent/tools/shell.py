"""Split a bash command line into the simple commands bash would run, as argument lists.

The split errs on the side of seeing more commands, never fewer: the text of ``$(...)`` and
backticks, the string of ``bash -c``/``sh -c``/``eval``, the command after a wrapper (``env``,
``command``, ``nohup``, ``time``, ``exec``, ``sudo``, ``xargs``, ...) and after ``find -exec``
are each a command of their own. Quotes, escapes, ``&&``/``||``/``;``/``|``/``&``, newlines,
subshells, groups, redirections and leading assignments are handled as bash does.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import shlex
from collections.abc import Iterator

MAX_DEPTH = 8
_PUNCTUATION = ";&|()<>\n"
_KEYWORDS = frozenset(
    {"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}"}
)
_SHELLS = frozenset({"bash", "sh", "dash", "zsh", "ksh", "ash", "busybox"})
# Wrappers that run their arguments as a command, with the options that take a value.
_WRAPPERS: dict[str, frozenset[str]] = {
    "env": frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}),
    "command": frozenset(),
    "builtin": frozenset(),
    "nohup": frozenset(),
    "time": frozenset({"-f", "--format", "-o", "--output"}),
    "exec": frozenset({"-a"}),
    "sudo": frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"}),
    "doas": frozenset({"-u", "-C"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "ionice": frozenset({"-c", "-n", "-p"}),
    "setsid": frozenset(),
    "stdbuf": frozenset({"-i", "-o", "-e"}),
    "timeout": frozenset({"-s", "--signal", "-k", "--kill-after"}),
    "xargs": frozenset({"-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s", "--delimiter"}),
    "watch": frozenset({"-n", "--interval", "-d"}),
    "chroot": frozenset(),
    "unbuffer": frozenset(),
}
_POSITIONAL_BEFORE_COMMAND = {"timeout": 1, "chroot": 1}


class ShellSyntaxError(ValueError):
    """The line cannot be split as bash would (for example an unclosed quote)."""


def simple_commands(line: str, depth: int = 0) -> Iterator[list[str]]:
    """Every simple command of ``line`` (nested ones included), as its words."""
    if depth > MAX_DEPTH:
        raise ShellSyntaxError(f"commands nested more than {MAX_DEPTH} deep")
    line = ansi_c_quotes(line)
    for body in substitutions(line):
        yield from simple_commands(body, depth + 1)
    for words in _segments(_tokens(line)):
        yield from _unwrap(words, depth)


def ansi_c_quotes(line: str) -> str:
    """``$'...'`` (escapes decoded, as bash does) and ``$"..."`` as plain quoted words."""
    out: list[str] = []
    quote = ""
    i = 0
    while i < len(line):
        char = line[i]
        if char == "\\" and quote != "'":
            out.append(line[i : i + 2])
            i += 2
            continue
        if not quote and char == "$" and line[i + 1 : i + 2] == "'":
            end = i + 2
            while end < len(line) and line[end] != "'":
                end += 2 if line[end] == "\\" else 1
            if end >= len(line):
                raise ShellSyntaxError("unclosed $'")
            body = line[i + 2 : end]
            with contextlib.suppress(UnicodeError):  # non-Latin-1 text: kept as written
                body = codecs.decode(body, "unicode_escape")
            out.append(shlex.quote(body))
            i = end + 1
            continue
        if not quote and char == "$" and line[i + 1 : i + 2] == '"':
            i += 1
            continue
        if quote == "'":
            quote = "" if char == "'" else quote
        elif char == "'" and not quote:
            quote = "'"
        elif char == '"':
            quote = "" if quote == '"' else '"'
        out.append(char)
        i += 1
    return "".join(out)


def substitutions(line: str) -> list[str]:
    """The bodies of ``$(...)``, ``<(...)``, ``>(...)`` and backticks outside single quotes."""
    found: list[str] = []
    quote = ""
    i = 0
    while i < len(line):
        char = line[i]
        if char == "\\" and quote != "'":
            i += 2
            continue
        if quote == "'":
            quote = "" if char == "'" else quote
        elif char == "'" and not quote:
            quote = "'"
        elif char == '"':
            quote = "" if quote == '"' else '"'
        elif char == "`":
            end = line.find("`", i + 1)
            if end < 0:
                raise ShellSyntaxError("unclosed backtick")
            found.append(line[i + 1 : end])
            i = end
        elif char == "(" and i > 0 and line[i - 1] in "$<>":
            end = _closing(line, i)
            found.append(line[i + 1 : end])
            i = end
        i += 1
    return found


def _closing(line: str, start: int) -> int:
    depth = 0
    for i in range(start, len(line)):
        if line[i] == "(":
            depth += 1
        elif line[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    raise ShellSyntaxError("unclosed $(")


def _tokens(line: str) -> list[str]:
    lexer = shlex.shlex(line, posix=True, punctuation_chars=_PUNCTUATION)
    lexer.whitespace = " \t\r"
    lexer.commenters = ""
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError as error:
        raise ShellSyntaxError(str(error)) from error


def _is_operator(token: str) -> bool:
    return bool(token) and all(char in _PUNCTUATION for char in token)


def _segments(tokens: list[str]) -> Iterator[list[str]]:
    words: list[str] = []
    skip_target = False
    for index, token in enumerate(tokens):
        if _is_operator(token):
            if "<" in token or ">" in token:
                if words and words[-1].isdigit():
                    words.pop()
                following = tokens[index + 1] if index + 1 < len(tokens) else ""
                skip_target = not _is_operator(following)
                continue
            if words:
                yield words
            words = []
            continue
        if skip_target:
            skip_target = False
            continue
        words.append(token)
    if words:
        yield words


def _unwrap(words: list[str], depth: int) -> Iterator[list[str]]:
    """The command itself, then the commands it runs (shells' -c strings, wrapped commands)."""
    while words and (_is_assignment(words[0]) or words[0] in _KEYWORDS):
        words = words[1:]
    if not words:
        return
    name = os.path.basename(words[0])
    yield [name, *words[1:]]
    if name in _SHELLS:
        script = _shell_script(words[1:])
        if script is not None:
            yield from simple_commands(script, depth + 1)
    elif name == "eval":
        yield from simple_commands(" ".join(words[1:]), depth + 1)
    elif name in _WRAPPERS:
        rest, split_string = _after_wrapper(name, words[1:])
        if split_string is not None:
            yield from simple_commands(split_string, depth + 1)
        yield from _unwrap(rest, depth + 1)
    elif name == "find":
        yield from _find_exec(words[1:], depth)


def _is_assignment(word: str) -> bool:
    name, equals, _ = word.partition("=")
    return bool(equals) and name.replace("_", "a").isalnum() and not name[0].isdigit()


def _shell_script(args: list[str]) -> str | None:
    """The command string of ``bash -c STRING`` (also ``-lc``, ``-euc``, ``-o x -c``)."""
    takes_value = False
    has_c = False
    for arg in args:
        if takes_value:
            takes_value = False
            continue
        if arg in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            takes_value = True
        elif arg[:1] in "-+" and not arg.startswith("--") and len(arg) > 1:
            has_c = has_c or "c" in arg[1:]
            takes_value = "o" in arg[1:] or "O" in arg[1:]
        elif arg.startswith("--"):
            continue
        elif has_c:
            return arg
        else:
            return None
    return None


def _after_wrapper(name: str, args: list[str]) -> tuple[list[str], str | None]:
    """The wrapped command's words, and ``env -S``'s string when given."""
    with_value = _WRAPPERS[name]
    positional = _POSITIONAL_BEFORE_COMMAND.get(name, 0)
    split_string: str | None = None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            i += 1
            break
        if arg in with_value:
            if arg in ("-S", "--split-string") and i + 1 < len(args):
                split_string = args[i + 1]
            i += 2
            continue
        if arg.startswith("--split-string=") or (arg.startswith("-S") and name == "env"):
            split_string = arg.split("=", 1)[1] if "=" in arg[:16] else arg[2:]
            i += 1
            continue
        if arg.startswith("-") and len(arg) > 1:
            i += 1
            continue
        if name == "env" and _is_assignment(arg):
            i += 1
            continue
        if positional:
            positional -= 1
            i += 1
            continue
        break
    return args[i:], split_string


def _find_exec(args: list[str], depth: int) -> Iterator[list[str]]:
    """The commands of ``find ... -exec CMD ... ;`` (and -execdir, -ok, -okdir)."""
    i = 0
    while i < len(args):
        if args[i] in ("-exec", "-execdir", "-ok", "-okdir"):
            end = i + 1
            while end < len(args) and args[end] not in (";", "+"):
                end += 1
            yield from _unwrap(args[i + 1 : end], depth + 1)
            i = end
        i += 1
