"""Where a Python project's own code lives in a tree: its package roots.

The code under test must come from the task's folder, never from an install of the project
(an editable install points at the user's checkout, HEAD's code: the answer). pytest is
told these roots with ``-o pythonpath=...``: it puts them first on ``sys.path`` after it has
loaded itself and its plugins, so no file of the workspace runs before pytest does. The
agent's commands get them as ``PYTHONPATH``, and so do the Pythons a test starts (``sys.executable
-c "import pkg"``, a console script of the project's ``.venv``): the check and the proof set it
for them but start pytest (or unittest's hook) with ``-E``, which ignores it, so a
``sitecustomize.py`` or a module named like a standard-library one at a root still cannot run
inside the test runner before it has loaded.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable
from configparser import ConfigParser
from configparser import Error as ConfigError
from pathlib import PurePosixPath

from garuda_evals_repo_git.rules import TEST_FOLDERS, is_test_path

SAFE_ROOT = re.compile(r"^[A-Za-z0-9_.][A-Za-z0-9_./-]*$")
NOT_MODULES = frozenset({"setup.py", "conftest.py", "noxfile.py", "fabfile.py", "manage.py"})
# pytest reads the first of these that holds its section (the rootdir's own).
INI_SECTIONS = (
    ("pytest.ini", "pytest"),
    (".pytest.ini", "pytest"),
    ("tox.ini", "pytest"),
    ("setup.cfg", "tool:pytest"),
)


def _is_code(path: PurePosixPath) -> bool:
    return path.suffix == ".py" and path.name not in NOT_MODULES and not is_test_path(str(path))


def layout_roots(tracked: Iterable[str]) -> list[str]:
    """Every ``src`` folder that holds code (``src/``, and a workspace's ``pkg/src/``), then
    ``.`` when modules or packages sit at the top."""
    src: set[str] = set()
    paths = [PurePosixPath(p) for p in tracked]
    for path in paths:
        if "src" in path.parts[:-1] and _is_code(path):
            src.add(str(PurePosixPath(*path.parts[: path.parts.index("src") + 1])))
    roots = sorted(src, key=lambda root: (root != "src", root))
    flat = any(
        _is_code(p)
        and (
            len(p.parts) == 1
            or (
                p.parts[0] not in ("src", *TEST_FOLDERS)
                and PurePosixPath(p.parts[0], "__init__.py") in paths
            )
        )
        for p in paths
    )
    if flat:
        roots.append(".")
    return roots


def configured_pythonpath(read: Callable[[str], str | None]) -> list[str]:
    """The ``pythonpath`` of the project's pytest configuration (``-o`` would replace it)."""
    for name, section in INI_SECTIONS:
        text = read(name)
        if not text:
            continue
        parser = ConfigParser(interpolation=None)
        try:
            parser.read_string(text)
        except ConfigError:
            continue
        if parser.has_section(section):
            return parser.get(section, "pythonpath", fallback="").split()
    text = read("pyproject.toml")
    if text:
        try:
            tool = tomllib.loads(text).get("tool", {})
        except tomllib.TOMLDecodeError:
            return []
        pytest = tool.get("pytest", {}) if isinstance(tool, dict) else {}
        options = pytest.get("ini_options", pytest) if isinstance(pytest, dict) else {}
        value = options.get("pythonpath", []) if isinstance(options, dict) else []
        if isinstance(value, str):
            return value.split()
        if isinstance(value, list):
            return [v for v in value if isinstance(v, str)]
    return []


def package_roots(tracked: Iterable[str], read: Callable[[str], str | None]) -> tuple[str, ...]:
    """The layout's roots, then the configured ``pythonpath`` (each once, in order)."""
    found = [*layout_roots(tracked), *configured_pythonpath(read)]
    clean = [root.strip("/") or "." for root in found if SAFE_ROOT.match(root)]
    return tuple(dict.fromkeys(clean))


def pythonpath_option(roots: tuple[str, ...]) -> str:
    """pytest's ``-o pythonpath=...`` for ``roots``, as shell text ("" when there are none).

    The paths are made absolute from the working folder when the command runs (``$PWD``):
    pytest reads relative ones from the folder of whichever configuration file it finds.
    """
    if not roots:
        return ""
    paths = " ".join("'$PWD'" if root == "." else f"'$PWD/{root}'" for root in roots)
    return f'-o "pythonpath={paths}"'


def child_pythonpath(roots: tuple[str, ...]) -> str:
    """``PYTHONPATH=...`` for the Pythons a test starts, as shell text ("" when no roots).

    The roots (absolute from ``$PWD``) come first, then any ``PYTHONPATH`` already set. The
    runner itself must be started with ``-E`` for this to reach its children only.
    """
    if not roots:
        return ""
    paths = ":".join("$PWD" if root == "." else f"$PWD/{root}" for root in roots)
    return f'PYTHONPATH="{paths}${{PYTHONPATH:+:$PYTHONPATH}}"'
