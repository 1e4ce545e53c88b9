"""Agent files that a repo task's pytest would import in place of the runner's own modules.

The check puts the task's package roots first on ``sys.path`` (``-o pythonpath=...``), so a
module the agent adds at a root named like a standard-library module, a runner module or
one of the project's pytest plugins (``-p name``) would run inside pytest and could patch it.
"""

from __future__ import annotations

import itertools
import shlex
import sys
from collections.abc import Sequence
from pathlib import PurePosixPath

RUNNER_MODULES = frozenset(
    {"pytest", "_pytest", "pluggy", "iniconfig", "packaging", "py", "pygments", "exceptiongroup"}
)
STARTUP_MODULES = frozenset({"sitecustomize", "usercustomize"})
MODULE_SUFFIXES = (".py", ".pyw", ".pyc", ".so", ".pyd")


def check_roots(command: str) -> tuple[list[str], set[str]]:
    """The package roots (``-o pythonpath=``) and the plugin modules (``-p``) of a check."""
    try:
        words = shlex.split(command)
    except ValueError:
        return [], set()
    roots: list[str] = []
    plugins: set[str] = set()
    if "-c" in words:  # the unittest report's hook: -c SOURCE REPORT ROOTS FILE...
        at = words.index("-c")
        found = words[at + 3] if len(words) > at + 3 else "."
        hook_roots = [root if root.strip(".") else "" for root in found.split(":")]
        return [*dict.fromkeys([*hook_roots, ""])], plugins
    for flag, value in itertools.pairwise(words):
        if flag == "-o" and value.startswith("pythonpath="):
            roots.extend(shlex.split(value.removeprefix("pythonpath=")))
        elif flag == "-p" and not value.startswith("no:"):
            plugins.add(value.split(".")[0])
    relative = [root.removeprefix("$PWD").strip("/") for root in roots]
    return [root if root.strip(".") else "" for root in relative], plugins


def _module(path: str, root: str) -> str | None:
    pure = PurePosixPath(path)
    base = PurePosixPath(root) if root else PurePosixPath()
    if root and base not in pure.parents:
        return None
    rest = pure.relative_to(base).parts
    if len(rest) > 1:
        return rest[0]
    return rest[0].split(".", 1)[0] if rest[0].endswith(MODULE_SUFFIXES) else None


def shadow_refusals(command: str, changed: Sequence[str]) -> list[str]:
    """One line per changed path that would shadow a module pytest or its plugins import."""
    roots, plugins = check_roots(command)
    lines = []
    for path in changed:
        for root in roots:
            name = _module(path, root)
            if name is None:
                continue
            where = f"{root}/" if root else "the workspace root"
            if name in STARTUP_MODULES:
                lines.append(f"{path} is a {name} module, which Python's start-up imports")
            elif name in RUNNER_MODULES or name in plugins:
                lines.append(
                    f"{path} shadows the test runner's module {name} (import root {where})"
                )
            elif name in sys.stdlib_module_names:
                lines.append(
                    f"{path} shadows the standard-library module {name} (import root {where})"
                )
            else:
                continue
            break
    return lines
