"""An instance becomes a saved task: its check command, test directives and protected paths."""

from __future__ import annotations

import shlex

from garuda_evals_swebench.gitio import Patched
from garuda_evals_swebench.instances import Instance
from garuda_evals_swebench.recipe import Resolved

COMMANDS = {
    "pytest": (
        "PYTHONDONTWRITEBYTECODE=1 PYTHONPATH={pythonpath} {python} -m pytest -rA "
        "-p no:cacheprovider --junitxml={junit} {tests}"
    ),
    "django": (
        "PYTHONPATH={pythonpath} {python} -E {hook} {junit} tests/runtests.py --verbosity 2 "
        "--settings=test_sqlite --parallel 1 {tests}"
    ),
}
COMMANDS["sympy"] = COMMANDS["pytest"]
"""The default check of each runner (a recipe's ``test_command`` replaces it): SWE-bench's
test command, writing the report the runner reads."""

NON_TEST_SUFFIXES = (
    ".json",
    ".png",
    "csv",
    ".txt",
    ".md",
    ".jpg",
    ".jpeg",
    ".pkl",
    ".yml",
    ".yaml",
    ".toml",
)
"""Files of a test patch that are not given to the runner (SWE-bench's list)."""

TEST_FOLDERS = ("tests/", "test/", "testing/")
CONFIG_NAMES = ("conftest.py", "pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml")


def directives(runner: str, tests: Patched) -> list[str]:
    """What the runner is given: the test patch's test files (Django: their module labels
    below ``tests/``), as SWE-bench gives them."""
    paths = sorted(tests.files)
    if runner == "django":
        return [
            path[len("tests/") : -len(".py")].replace("/", ".")
            for path in paths
            if path.startswith("tests/") and path.endswith(".py")
        ]
    return [path for path in paths if not path.endswith(NON_TEST_SUFFIXES)]


def check_command(recipe: Resolved, tests: list[str]) -> str:
    """The recipe's (or the runner's default) command with its placeholders filled but
    ``{junit}`` and ``{hook}``, which the check runner fills per run."""
    roots = [
        "$PWD" if root in ("", ".") else f"$PWD/{root.strip('/')}" for root in recipe.pythonpath
    ]
    template = recipe.test_command or COMMANDS[recipe.runner]
    return (
        template.replace("{python}", shlex.quote(f"{recipe.link}/bin/python"))
        .replace("{pythonpath}", '"' + ":".join(roots) + '"')
        .replace("{tests}", shlex.join(tests))
    )


def protected_paths(instance: Instance, solution: Patched, tests: Patched) -> list[str]:
    """The test patch's files; every test folder and test configuration file, but those
    the reference patch itself changes (an agent may have to change what it changed)."""
    touched = [*solution.files, *solution.deleted]
    names = {path.rsplit("/", 1)[-1] for path in touched}
    found = sorted({*tests.files, *tests.deleted})
    found += [
        folder for folder in TEST_FOLDERS if not any(f"/{folder}" in f"/{path}" for path in touched)
    ]
    found += [name for name in CONFIG_NAMES if name not in names]
    return found
