"""Copies of the project's own code that the environment of its tests can import.

A plain folder in site-packages (vendored, copied, no dist-info), a ``.pth`` or egg-link to
another checkout: any of them is the project's code at some commit, readable by an agent
through the linked environment, and perhaps the answer to a task. ``pyenv`` finds regular
installs by their dist-info records; this finds every copy by asking the interpreters the
check uses to resolve each top-level import name of the project, with the checkout removed
from ``sys.path`` (the OS sandbox hides it, with an editable install's source in it).
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from garuda_evals.api import UsageError
from garuda_evals_repo_git.pyenv import PROBE_TIMEOUT_S, interpreter
from garuda_evals_repo_git.pyroots import NOT_MODULES
from garuda_evals_repo_git.rules import TEST_FOLDERS, is_test_path
from garuda_evals_repo_git.runners import TestCommand

# Runs in the interpreter the check uses (-E: PYTHONPATH is not read, as in the check).
# Entries inside the checkout but outside its linked environments leave sys.path first: the
# working folder, an editable install's source; what still resolves is a copy.
PROBE = r"""
import importlib.util, json, os, sys
wanted = json.loads(sys.stdin.read())
root = os.path.realpath(wanted["root"])
venvs = [os.path.realpath(v) for v in wanted["venvs"]]
def inside(path, folder):
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)
def checkout(path):
    real = os.path.realpath(path or ".")
    return inside(real, root) and not any(inside(real, v) for v in venvs)
sys.path[:] = [p for p in sys.path if not checkout(p)]
sys.path_importer_cache.clear()
found = []
for name in wanted["names"]:
    try:
        spec = importlib.util.find_spec(name)
    except Exception:
        continue
    if spec is None:
        continue
    places = list(spec.submodule_search_locations or [])
    if spec.origin and os.path.isabs(spec.origin) and not places:
        places.append(spec.origin)
    for place in places:
        if not checkout(place):
            found.append({"name": name, "path": os.path.realpath(place)})
            break
print(json.dumps(found))
"""


@dataclass(frozen=True)
class Copy:
    """A top-level module of the project that an interpreter imports from outside the checkout."""

    name: str
    source: str
    path: str
    python: str


def _identifier(name: str) -> bool:
    return name.isidentifier() and name not in sys.stdlib_module_names


def top_level_names(tracked: Iterable[str], roots: Iterable[str]) -> dict[str, str]:
    """The project's top-level import names -> where each sits in the tree.

    Under a ``src``-like root: every module and every folder holding code. At ``.``: modules
    at the top (not ``setup.py`` and the like) and folders with an ``__init__.py`` (a plain
    folder there is docs or scripts more often than code). Tests and standard-library names
    are left out.
    """
    paths = [PurePosixPath(p) for p in tracked]
    present = set(paths)
    roots = list(roots)
    nested = {PurePosixPath(r).parts[0] for r in roots if r != "."}
    names: dict[str, str] = {}
    for root in roots:
        base = PurePosixPath(root) if root != "." else PurePosixPath()
        for path in paths:
            if path.suffix != ".py" or is_test_path(str(path)) or path.name in NOT_MODULES:
                continue
            if root != "." and base not in path.parents:
                continue
            rest = path.relative_to(base).parts
            if len(rest) == 1:
                name, source = path.stem, str(path)
            elif root == ".":
                top = rest[0]
                if top in nested or PurePosixPath(top, "__init__.py") not in present:
                    continue
                name, source = top, top
            else:
                name, source = rest[0], str(base / rest[0])
            if _identifier(name) and name not in TEST_FOLDERS:
                names.setdefault(name, source)
    return names


def _pythons(command: TestCommand, root: Path, venvs: list[str]) -> list[list[str]]:
    """The interpreters the check uses: the one that runs the tests, then each linked venv's."""
    found: list[list[str]] = []
    words = None
    if command.kind == "pytest":
        words = interpreter(command, root)
    elif command.kind == "unittest":
        words = shlex.split(command.prefix) or None
    if words:
        found.append(words)
    probed = {(root / words[0]).resolve()} if words and len(words) == 1 else set()
    for venv in venvs:
        python = root / venv / "bin" / "python"
        if python.exists() and python.resolve() not in probed:
            found.append([str(python)])
    return found


def _probe(
    python: list[str], root: Path, names: list[str], venvs: list[str]
) -> list[dict[str, str]]:
    wanted = json.dumps(
        {"root": str(root), "venvs": [str(root / v) for v in venvs], "names": names}
    )
    try:
        result = subprocess.run(
            [*python, "-E", "-c", PROBE],
            cwd=root,
            input=wanted,
            capture_output=True,
            text=True,
            timeout=PROBE_TIMEOUT_S,
            check=False,
        )
        data = json.loads(result.stdout) if result.returncode == 0 else []
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return []
    return [item for item in data if isinstance(item, dict)] if isinstance(data, list) else []


def package_copies(
    root: Path,
    command: TestCommand,
    tracked: Iterable[str],
    roots: Iterable[str],
    venvs: list[str],
) -> list[Copy]:
    """Every top-level module of the project that an interpreter of the check imports from
    outside the checkout (a linked environment counts as outside)."""
    names = top_level_names(tracked, roots)
    if not names:
        return []
    copies: list[Copy] = []
    seen: set[tuple[str, str]] = set()
    for python in _pythons(command, root, venvs):
        for item in _probe(python, root, sorted(names), venvs):
            name, path = item.get("name", ""), item.get("path", "")
            if name in names and (name, path) not in seen:
                seen.add((name, path))
                copies.append(Copy(name, names[name], path, " ".join(python)))
    return copies


def refuse_package_copies(
    root: Path,
    command: TestCommand,
    tracked: Iterable[str],
    roots: Iterable[str],
    venvs: list[str],
    then: str,
) -> None:
    """A UsageError naming the first copy of the project the check's environment imports."""
    for copy in package_copies(root, command, tracked, roots, venvs):
        raise UsageError(
            f"a copy of the project's module {copy.name} ({copy.source}) is importable where "
            f"its tests run, outside your checkout ({copy.path}, seen by {copy.python}): it is "
            "the project's code, perhaps the answer to a task, and an agent could read it. "
            f"Remove it from that environment (or install the project editable, pip install "
            f"-e .), then {then}"
        )
