"""The approver: allows each call once, and denies commands by rule, on the parsed command line."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fnmatch import fnmatchcase

from garuda_evals_agent.tools.shell import ShellSyntaxError, simple_commands

DENY_RULES = ("rm -rf*", "sudo*", "git push*", "curl*", "wget*")

# Long options and short letters that mean the same flag, per command.
_FLAG_ALIASES: dict[str, dict[str, str]] = {
    "rm": {"R": "r", "recursive": "r", "force": "f"},
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


@dataclass(frozen=True)
class Rule:
    """A deny rule ``NAME [-FLAGS] [SUBCOMMAND]...``: a glob on the command's name, the
    short flags that must all be given (in any order, together or apart, long forms too),
    and the subcommand words that must come first among its arguments."""

    text: str
    name: str
    flags: frozenset[str]
    subcommand: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> Rule:
        """``rm -rf*`` → name ``rm``, flags ``{r, f}``; ``git push*`` → subcommand ``push``."""
        words = text.rstrip("*").split() or [text]
        flags = {letter for word in words[1:] if word.startswith("-") for letter in word[1:]}
        subcommand = tuple(word for word in words[1:] if not word.startswith("-"))
        name = words[0] + ("*" if len(words) == 1 and text.endswith("*") else "")
        return cls(text, name, frozenset(flags), subcommand)

    def matches(self, words: list[str]) -> bool:
        """True when the simple command ``words`` (name first) falls under this rule."""
        name, args = words[0], words[1:]
        if not fnmatchcase(name, self.name):
            return False
        if self.flags and not self.flags <= _short_flags(name, args):
            return False
        if self.subcommand:
            return _subcommand(name, args)[: len(self.subcommand)] == list(self.subcommand)
        return True


def _short_flags(name: str, args: list[str]) -> set[str]:
    aliases = _FLAG_ALIASES.get(name, {})
    flags: set[str] = set()
    for arg in args:
        if arg == "--":
            break
        if arg.startswith("--"):
            long = arg[2:].split("=", 1)[0]
            flags.add(aliases.get(long, long))
        elif arg.startswith("-") and len(arg) > 1:
            flags.update(aliases.get(letter, letter) for letter in arg[1:])
    return flags


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
            commands.append(["git", *body.split()])
    return commands


class Approver:
    """Allows each tool call once (no prompt: evals run unattended), denying by ``rules``.

    The line is split as bash would split it (see ``shell.py``), and every simple command in
    it, nested ones included, is checked: ``cd x && rm -rf y``, ``/bin/rm -fr y``,
    ``bash -c 'rm -rf y'`` and ``env rm -r -f y`` are all denied; ``echo 'done; sudo x'`` is not.
    A line that cannot be split (an unclosed quote) is denied, since bash would not run it either.
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
