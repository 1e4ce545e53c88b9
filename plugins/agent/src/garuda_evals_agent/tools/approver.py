"""The approver: allows each call once, and denies commands by rule, on the parsed command line."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fnmatch import fnmatchcase

from garuda_evals_agent.tools.shell import ShellSyntaxError, simple_commands

DENY_RULES = ("rm -rf*", "sudo*", "git push*", "curl*", "wget*")

# The spellings of one option, per command, and the one they all stand for: ``rm -R``,
# ``rm --recursive`` and ``rm -r`` are one flag, and so are ``git push -f`` and ``--force``.
_OPTION_ALIASES: dict[str, dict[str, str]] = {
    "rm": {"-R": "-r", "--recursive": "-r", "--force": "-f"},
    "git": {"-f": "--force"},
}
# Global options of git that take a value as the next word.
_GIT_VALUE_OPTIONS = frozenset(
    {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"}
)


@dataclass(frozen=True)
class Decision:
    """Allowed, or denied with the rule that matched (or why the line could not be read)."""

    allowed: bool
    rule: str | None = None
    reason: str | None = None

    def message(self, command: str) -> str:
        """What the model is told about a denial."""
        if self.reason is not None:
            return f"Denied: {self.reason}; the command was not run: {command}"
        return f"Denied: the command matches the deny rule '{self.rule}' and was not run: {command}"


class RuleError(ValueError):
    """A deny rule that cannot be read; the message names it."""


@dataclass(frozen=True)
class Rule:
    """A deny rule ``NAME [-FLAGS] [--LONG] [SUBCOMMAND]...``: a glob on the command's name,
    the options that must all be given (in any order, together or apart, in any of their
    spellings), and the subcommand words that must come first among its arguments."""

    text: str
    name: str
    options: frozenset[str]
    """Each as ``-x`` or ``--name``, in the spelling the command's aliases stand for."""
    subcommand: tuple[str, ...]
    glob_long: str | None = None
    """The rule ends in ``--LONG*``: longer long options (``--force-with-lease``) count too
    (``rm --force*`` stands for ``-f``, which has no longer forms)."""

    @classmethod
    def parse(cls, text: str) -> Rule:
        """``rm -rf*`` → name ``rm``, options ``-r -f``; ``git push --force*`` → subcommand
        ``push``, option ``--force``; ``rm --force*`` → option ``-f`` (rm's aliases).
        Raises ``RuleError`` for an option word it could never match."""
        words = text.rstrip("*").split() or [text]
        aliases = _OPTION_ALIASES.get(words[0], {})
        options: set[str] = set()
        for word in words[1:]:
            if word in ("-", "--") or (word.startswith("--") and "=" in word):
                raise RuleError(
                    f"deny rule {text!r}: {word!r} is not an option it can match "
                    "(write -x, --name or a subcommand word)"
                )
            if word.startswith("--"):
                options.add(aliases.get(word, word))
            elif word.startswith("-"):
                options.update(aliases.get(f"-{letter}", f"-{letter}") for letter in word[1:])
        subcommand = tuple(word for word in words[1:] if not word.startswith("-"))
        name = words[0] + ("*" if len(words) == 1 and text.endswith("*") else "")
        last = words[-1]
        glob = aliases.get(last, last) if text.endswith("*") and last.startswith("--") else None
        return cls(text, name, frozenset(options), subcommand, glob)

    def matches(self, words: list[str]) -> bool:
        """True when the simple command ``words`` (name first) falls under this rule."""
        name, args = words[0], words[1:]
        if not fnmatchcase(name, self.name):
            return False
        if self.options:
            given = _options(name, args)
            if not all(self._given(option, given) for option in self.options):
                return False
        if self.subcommand:
            return _subcommand(name, args)[: len(self.subcommand)] == list(self.subcommand)
        return True

    def _given(self, option: str, given: set[str]) -> bool:
        """``option`` is among ``given``; a long one also abbreviated (GNU getopt and git take
        ``--forc`` for ``--force``; where that is ambiguous the command refuses to run, so
        counting it costs nothing), or longer when the rule's star is glued to it."""
        if not option.startswith("--"):
            return option in given
        glob = option == self.glob_long
        return any(
            long.startswith("--")
            and (option.startswith(long) or (glob and long.startswith(option)))
            for long in given
        )


def _options(name: str, args: list[str]) -> set[str]:
    """The options ``args`` give, up to ``--``: each letter as ``-x``, each long option as
    ``--name``, and each also in the spelling its command's aliases stand for; a long option
    counts as every aliased long option it abbreviates (``rm --recu`` is ``-r``)."""
    aliases = _OPTION_ALIASES.get(name, {})
    given: set[str] = set()
    for arg in args:
        if arg == "--":
            break
        if arg.startswith("--"):
            long = arg.partition("=")[0]
            if long == "--":
                continue  # "--=x" names no option
            given.add(long)
            given.update(option for spelled, option in aliases.items() if spelled.startswith(long))
        elif arg.startswith("-") and len(arg) > 1:
            given.update(aliases.get(f"-{letter}", f"-{letter}") for letter in arg[1:])
    return given


def _subcommand(name: str, args: list[str]) -> list[str]:
    """The arguments after the global options (git's ``-C dir``, ``-c k=v``, ``--no-pager``)."""
    i = 0
    while i < len(args) and args[i].startswith("-"):
        option = args[i]
        if option == "--":
            i += 1
            break
        i += 2 if name == "git" and option in _GIT_VALUE_OPTIONS else 1
    return args[i:]


def _git_aliases(words: list[str]) -> list[list[str]]:
    """``git -c alias.x=push ...`` defines a command on the line: each alias as a git command,
    or, for a shell alias (``alias.x=!cd /; rm -rf y``), the simple commands sh would run."""
    if words[0] != "git":
        return []
    bodies = [
        value.split("=", 1)[1]
        for option, value in itertools.pairwise(words)
        if option == "-c" and value.startswith("alias.") and "=" in value
    ]
    commands: list[list[str]] = []
    for body in bodies:
        if body.startswith("!"):
            commands += simple_commands(body[1:])
        else:
            commands.append(["git", *split_alias(body)])
    return commands


_GIT_SPACE = " \t\n\r"


def split_alias(body: str) -> list[str]:
    """The words of a git alias that is not a shell command, split as git's
    ``split_cmdline`` splits them: each run of blanks outside quotes starts a word (so a
    blank at either end gives an empty one), ``'...'`` and ``"..."`` quote, and a backslash
    outside single quotes takes the next character as it is."""
    words: list[str] = []
    word: list[str] = []
    quote = ""
    i = 0
    while i < len(body):
        character = body[i]
        i += 1
        if not quote and character in _GIT_SPACE:
            words.append("".join(word))
            word = []
            while i < len(body) and body[i] in _GIT_SPACE:
                i += 1
        elif not quote and character in "'\"":
            quote = character
        elif character == quote:
            quote = ""
        elif character == "\\" and quote != "'":
            if i == len(body):
                raise ShellSyntaxError(f"git alias {body!r} ends in a backslash")
            word.append(body[i])
            i += 1
        else:
            word.append(character)
    if quote:
        raise ShellSyntaxError(f"git alias {body!r} has an unclosed quote")
    return [*words, "".join(word)]


class Approver:
    """Allows each tool call once (no prompt: evals run unattended), denying by ``rules``.

    The line is split as bash would split it (see ``shell.py``), and every simple command in
    it, nested ones included, is checked: ``cd x && rm -rf y``, ``/bin/rm -fr y``,
    ``bash -c 'rm -rf y'`` and ``env rm -r -f y`` are all denied; ``echo 'done; sudo x'`` is not.
    A line that cannot be split (an unclosed quote) is denied, since bash would not run it either.
    A rule with an option word no line could match raises ``RuleError`` here, naming it.
    """

    def __init__(self, rules: tuple[str, ...] = DENY_RULES) -> None:
        self.rules = rules
        self._parsed = tuple(Rule.parse(rule) for rule in rules)

    def check_command(self, command: str) -> Decision:
        """The decision for one shell command line."""
        try:
            pending = list(simple_commands(command))
            while pending:
                words = pending.pop(0)
                for rule in self._parsed:
                    if rule.matches(words):
                        return Decision(False, rule.text)
                # a command's aliases next; their words come from its words, so this ends
                pending[:0] = _git_aliases(words)
        except ShellSyntaxError as error:
            return Decision(False, reason=f"the command line could not be parsed ({error})")
        return Decision(True)
