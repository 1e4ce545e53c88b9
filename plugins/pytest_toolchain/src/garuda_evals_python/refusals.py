"""Agent-changed files that would change how pytest runs or reports, named one per line.

The code under test runs inside the pytest process, so a module of the agent's that stands
in for a module pytest (or Python's start-up) imports gets to patch the runner before any
test runs: ``src/difflib.py`` is imported by pytest's assertion explanation on the first
failed comparison, with ``src/`` first on ``sys.path``.
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterable, Mapping, Sequence

RUNNER_MODULES = frozenset(
    {
        "pytest",
        "_pytest",
        "pluggy",
        "iniconfig",
        "packaging",
        "py",
        "pygments",
        "exceptiongroup",
        "tomli",
        "colorama",
    }
)
STARTUP_MODULES = frozenset({"sitecustomize", "usercustomize"})
CONFIG_FILES = frozenset(
    {
        "pytest.ini",
        ".pytest.ini",
        "pytest.toml",
        ".pytest.toml",
        "tox.ini",
        "setup.cfg",
        "conftest.py",
    }
)
MODULE_SUFFIXES = (".py", ".pyw", ".pyc", ".pyo", ".so", ".pyd")
TEST_FOLDERS = ("src", "tests")


def _module_name(rest: str) -> str | None:
    """The top-level module that ``rest`` (a path below an import root) would import as."""
    first, _, below = rest.partition("/")
    if below:
        return first
    if first.endswith(MODULE_SUFFIXES):
        return first.split(".", 1)[0]
    return None


def _pythonpath(files: Mapping[str, str]) -> list[str]:
    text = files.get("pyproject.toml")
    if text is None:
        return []
    try:
        options = tomllib.loads(text).get("tool", {}).get("pytest", {}).get("ini_options", {})
    except tomllib.TOMLDecodeError:
        return []
    entries = options.get("pythonpath", [])
    if isinstance(entries, str):
        entries = entries.split()
    return [str(entry).strip("/") for entry in entries if str(entry).strip("/.")]


def _is_test_file(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def import_roots(files: Mapping[str, str]) -> list[str]:
    """Folders (relative, ``""`` for the workspace) that end up on ``sys.path`` in a check.

    The workspace, ``src`` and ``tests``, the pyproject's ``pythonpath`` entries, and every
    folder above a test file (pytest's default import mode inserts a test's first folder
    without ``__init__.py``).
    """
    roots = {"", *TEST_FOLDERS, *_pythonpath(files)}
    for path in files:
        if _is_test_file(path):
            parts = path.split("/")[:-1]
            roots.update("/".join(parts[:end]) for end in range(1, len(parts) + 1))
    return sorted(roots)


def _below(path: str, root: str) -> str | None:
    if not root:
        return path
    prefix = f"{root}/"
    return path[len(prefix) :] if path.startswith(prefix) else None


def _own_modules(files: Iterable[str], root: str) -> set[str]:
    names = set()
    for path in files:
        rest = _below(path, root)
        name = _module_name(rest) if rest is not None else None
        if name:
            names.add(name)
    return names


def _config_refusal(path: str) -> str | None:
    name = path.rsplit("/", 1)[-1]
    if name in CONFIG_FILES:
        return f"{path} would configure pytest"
    if name.endswith(".pth"):
        return f"{path} is a .pth file, which Python's start-up executes"
    return None


def _shadow_refusal(path: str, roots: Sequence[str], own: Mapping[str, set[str]]) -> str | None:
    for root in roots:
        rest = _below(path, root)
        name = _module_name(rest) if rest is not None else None
        if name is None or name in own[root]:
            continue
        where = f"{root}/" if root else "the workspace root"
        if name in STARTUP_MODULES:
            return f"{path} is a {name} module, which Python's start-up imports"
        if name in RUNNER_MODULES:
            return f"{path} shadows the test runner's module {name} (import root {where})"
        if name in sys.stdlib_module_names:
            return f"{path} shadows the standard-library module {name} (import root {where})"
    return None


def python_refusals(files: Mapping[str, str], changed: Sequence[str]) -> list[str]:
    """One line per changed path that shadows a standard-library, runner or start-up module
    on an import root, is a pytest configuration file or conftest.py, or is a ``.pth`` file.

    ``files`` is the task as shipped: a module the task itself ships at a root (a package
    named like a stdlib module) is the task's design, not the agent's doing.
    """
    roots = import_roots(files)
    own = {root: _own_modules(files, root) for root in roots}
    lines = []
    for path in changed:
        line = _config_refusal(path) or _shadow_refusal(path, roots, own)
        if line:
            lines.append(line)
    return lines
