"""The runner behind a package script: ``lint && vitest run && tsc`` runs vitest.

A package script may chain a linter, the runner and a type check, call another script
(``npm run test:unit``) or wrap the runner (``cross-env CI=1 c8 node --test``). garuda calls
the runner itself, with the task's files and its report flags: the linter and the type
check are not the task's tests, and the package manager (pnpm, yarn) need not be installed.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import PurePosixPath

WRAPPERS = ("npm", "pnpm", "yarn", "bun")
# Words that run the next words as a command: env setters, coverage tools, npx and friends.
PASS_THROUGH = frozenset({"cross-env", "env", "npx", "c8", "nyc", "dotenv", "time"})
EXEC_WORDS = frozenset({"exec", "dlx", "x"})
CHAIN = re.compile(r"\s*(?:&&|\|\||;|\|(?!\|))\s*")
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
JS_RUNNERS = ("vitest", "jest", "mocha", "borp", "tap")
# Options of the script's runner call that keep their meaning when garuda calls it.
KEPT = {
    "node": ("--import", "--require", "-r", "--loader", "--experimental-", "--no-warnings",
             "--enable-source-maps", "--conditions", "-C"),
    "vitest": ("--config", "-c", "--root", "-r", "--dir", "--environment", "--pool"),
    "jest": ("--config", "-c", "--rootDir", "--env", "--testEnvironment"),
    "mocha": ("--require", "-r", "--config", "--ui", "-u", "--extension", "--loader",
              "--import", "--timeout", "-t"),
}  # fmt: skip
TAKES_VALUE = frozenset(
    {"--import", "--require", "-r", "--loader", "--conditions", "-C", "--config", "-c", "--root",
     "--dir", "--environment", "--pool", "--rootDir", "--env", "--testEnvironment", "--ui", "-u",
     "--extension", "--timeout", "-t"}
)  # fmt: skip
DIRECT = {
    "node": "node --test",
    "vitest": "node_modules/.bin/vitest run",
    "jest": "node_modules/.bin/jest",
    "mocha": "node_modules/.bin/mocha",
    "borp": "node_modules/.bin/borp",
    "tap": "node_modules/.bin/tap",
}


@dataclass(frozen=True)
class ScriptRunner:
    """The runner a script calls: its kind, the words of that call and the direct command."""

    kind: str
    words: tuple[str, ...]
    script: str
    direct: str


def segments(script: str) -> list[list[str]]:
    """The commands of a chained script, each as words (wrappers left off; ``VAR=value``
    settings, also those of ``cross-env``, kept first)."""
    found = []
    for part in CHAIN.split(script):
        try:
            words = shlex.split(part)
        except ValueError:
            continue
        settings: list[str] = []
        while words and (ASSIGNMENT.match(words[0]) or words[0] in PASS_THROUGH):
            if ASSIGNMENT.match(words[0]):
                settings.append(words[0])
            words = words[1:]
        if words and words[0] in WRAPPERS[1:] and words[1:2] and words[1] in EXEC_WORDS:
            words = words[2:]
        if words:
            found.append([*settings, *words])
    return found


def settings_of(words: list[str] | tuple[str, ...]) -> list[str]:
    """The leading ``VAR=value`` words."""
    settings = []
    for word in words:
        if not ASSIGNMENT.match(word):
            break
        settings.append(word)
    return settings


def runner_of(words: list[str]) -> str | None:
    """The runner these words call: node (``--test``), vitest, jest, mocha, borp, tap, pytest
    or unittest (also behind ``uv run``, ``poetry run``, ``python -m``)."""
    for index, word in enumerate(words[:4]):
        name = PurePosixPath(word).name
        module = words[index + 1] if word == "-m" and index + 1 < len(words) else None
        if name == "node" and "--test" in words:
            return "node"
        if name in JS_RUNNERS:
            return name
        if name == "pytest" or module == "pytest":
            return "pytest"
        if module == "unittest":
            return "unittest"
    return None


def _script_call(words: list[str]) -> str | None:
    """``npm run x`` / ``pnpm x`` / ``yarn test``: the script it runs."""
    if words[0] not in WRAPPERS or len(words) < 2:
        return None
    if words[1] in ("run", "run-script"):
        return words[2] if len(words) > 2 else None
    return words[1] if not words[1].startswith("-") else None


def kept_options(kind: str, words: tuple[str, ...]) -> list[str]:
    """The script's options for ``kind`` that hold when garuda calls the runner itself."""
    keep = KEPT.get(kind, ())
    kept: list[str] = []
    rest = list(words[1:])
    while rest:
        word = rest.pop(0)
        flag = word.split("=", 1)[0]
        if not any(flag == k or (k.endswith("-") and flag.startswith(k)) for k in keep):
            continue
        kept.append(word)
        if "=" not in word and flag in TAKES_VALUE and rest:
            kept.append(rest.pop(0))
    return kept


def find_runner(scripts: dict[str, str], name: str = "test", depth: int = 0) -> ScriptRunner | None:
    """The first known runner the script ``name`` calls, following calls of other scripts."""
    script = scripts.get(name, "")
    if not script or depth > 5:
        return None
    for words in segments(script):
        settings = settings_of(words)
        words = words[len(settings) :]
        called = _script_call(words)
        if called is not None:
            found = find_runner(scripts, "test" if called == "t" else called, depth + 1)
            if found is not None:
                return found
            continue
        kind = runner_of(words)
        if kind is not None:
            options = kept_options(kind, tuple(words))
            direct = DIRECT.get(kind, shlex.join(words))
            if kind == "node":
                direct = shlex.join(["node", *options, "--test"])
            elif options:
                direct = f"{direct} {shlex.join(options)}"
            if settings:
                direct = f"{shlex.join(settings)} {direct}"
            return ScriptRunner(kind, (*settings, *words), name, direct)
    return None
