"""Saved Python checks brought up to date when a run loads them (no build again needed).

A suite saved before the Pythons a test starts were given the package roots ran those
children on whatever install of the project they found (the user's checkout at HEAD on the
host, nothing in the sandbox). Such a check gets ``PYTHONPATH`` for the children and ``-E``
for the runner itself, exactly as a build makes it now; unittest's hook is swapped for this
version's too.
"""

from __future__ import annotations

import shlex

from garuda_evals_repo_git.pyrefusals import check_roots
from garuda_evals_repo_git.pyroots import child_pythonpath
from garuda_evals_repo_git.runners import NO_AUTOLOAD, PYTEST_ENV, command_line
from garuda_evals_repo_git.unittest_report import refreshed as refreshed_hook

OLD_PYTEST = " -P -m pytest "


def _roots(relative: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(root or "." for root in relative))


def _pytest(check: str) -> str:
    if not check.startswith(f"{PYTEST_ENV} ") or OLD_PYTEST not in check:
        return check
    rest = check.removeprefix(f"{PYTEST_ENV} ").replace(OLD_PYTEST, " -E -P -m pytest ", 1)
    start = child_pythonpath(_roots(check_roots(check)[0]))
    return command_line(start, NO_AUTOLOAD, rest)


def _unittest(check: str) -> str:
    check = refreshed_hook(check)
    try:
        words = shlex.split(check)
    except ValueError:
        return check
    if "-c" not in words or "-E" in words[: words.index("-c")] or " -c " not in check:
        return check
    at = words.index("-c")
    hook_roots = words[at + 3].split(":") if len(words) > at + 3 else ["."]
    start = child_pythonpath(_roots(hook_roots))
    python, _, rest = check.partition(" -c ")
    return command_line(start, f"{python} -E -c {rest}")


def refreshed_check(check: str, runner: str) -> str:
    """``check`` as this version would build it (``runner`` tells pytest from unittest)."""
    if runner == "repo-pytest":
        return _pytest(check)
    if runner == "repo-unittest":
        return _unittest(check)
    return check
