"""The project's Python environment as its tests see it: pytest plugins and own installs.

A check runs pytest with plugin autoload off, so the plugins installed where pytest runs are
named at build time (``-p name``). A regular (non-editable) install of the project itself
in that environment is a copy of HEAD's code, the answer to every task: it is refused.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import tomllib
from configparser import ConfigParser
from configparser import Error as ConfigError
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from garuda_evals.api import UsageError
from garuda_evals_repo_git.gitcmd import read_text
from garuda_evals_repo_git.rules import is_test_path
from garuda_evals_repo_git.runners import TestCommand

PROBE_TIMEOUT_S = 60.0
SAFE_PATH_VERSION = (3, 11)
NOT_MODULES = frozenset({"setup.py", "conftest.py", "noxfile.py"})
# Runs in the project's interpreter; the working folder leaves sys.path before any import.
PROBE = r"""
import os, sys
sys.path[:] = [p for p in sys.path if p not in ("", ".", os.getcwd())]
import json, re
from importlib import metadata
wanted = json.loads(sys.stdin.read())
modules, names = wanted["modules"], set(wanted["names"])
try:
    points = metadata.entry_points(group="pytest11")
except TypeError:
    points = metadata.entry_points().get("pytest11", [])
found = {}
for entry in sys.path:
    hits = [m for m in modules if os.path.isfile(os.path.join(entry, m))]
    if hits:
        found[os.path.realpath(entry)] = set(hits)
installs = []
for dist in metadata.distributions():
    name = dist.metadata["Name"] or ""
    where = os.path.realpath(str(dist.locate_file("")))
    named = re.sub(r"[-_.]+", "-", name).lower() in names
    if not named and where not in found:
        continue
    files = [str(f).replace(os.sep, "/") for f in (dist.files or [])]
    matches = sorted(f for f in files if f in found.get(where, ()))
    if not matches and not named:
        continue
    try:
        direct = json.loads(dist.read_text("direct_url.json") or "{}")
    except ValueError:
        direct = {}
    editable = bool((direct.get("dir_info") or {}).get("editable"))
    editable = editable or any("__editable__" in f for f in files)
    installs.append({"name": name, "version": dist.version, "editable": editable,
                     "location": where, "matches": matches[:3]})
print(json.dumps({"version": list(sys.version_info[:2]),
                  "plugins": sorted({p.name for p in points}), "installs": installs}))
"""


@dataclass(frozen=True)
class Install:
    """A distribution installed where pytest runs that is the project itself."""

    name: str
    version: str
    editable: bool
    location: Path
    matches: tuple[str, ...]


@dataclass(frozen=True)
class Environment:
    """What one interpreter holds: its version, pytest plugins and installs of the project."""

    python: str
    version: tuple[int, int]
    plugins: tuple[str, ...]
    installs: tuple[Install, ...]


def normalize(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def interpreter(command: TestCommand, root: Path) -> list[str] | None:
    """The words that start the Python that runs pytest (None when it cannot be told)."""
    words = shlex.split(command.prefix)
    if words[-2:] == ["-m", "pytest"]:
        return words[:-2] or None
    if not words:
        return None
    if len(words) > 1:
        return [*words[:-1], "python"]
    script = words[0]
    found = str(root / script) if "/" in script else shutil.which(script)
    if not found or not Path(found).is_file():
        return None
    with open(found, "rb") as handle:
        first = handle.readline(4096).decode("utf-8", "replace")
    return shlex.split(first[2:]) if first.startswith("#!") else None


def project_names(root: Path, sha: str) -> set[str]:
    """The project's distribution names from pyproject.toml, setup.cfg or setup.py at ``sha``."""
    names: set[str] = set()
    pyproject = read_text(root, sha, "pyproject.toml")
    if pyproject:
        try:
            data = tomllib.loads(pyproject)
        except tomllib.TOMLDecodeError:
            data = {}
        for table in (data.get("project"), data.get("tool", {}).get("poetry")):
            if isinstance(table, dict) and isinstance(table.get("name"), str):
                names.add(table["name"])
    setup_cfg = read_text(root, sha, "setup.cfg")
    if setup_cfg:
        parser = ConfigParser(interpolation=None)
        try:
            parser.read_string(setup_cfg)
            if parser.has_option("metadata", "name"):
                names.add(parser.get("metadata", "name"))
        except ConfigError:
            pass
    setup_py = read_text(root, sha, "setup.py") or ""
    names.update(re.findall(r"""\bname\s*=\s*["']([A-Za-z0-9._-]+)["']""", setup_py))
    return {normalize(name) for name in names}


def project_modules(tracked: list[str]) -> list[str]:
    """Where the project's modules would land in site-packages (``src/`` layouts too)."""
    found: set[str] = set()
    for path in tracked:
        pure = PurePosixPath(path)
        if pure.suffix != ".py" or pure.name in NOT_MODULES or is_test_path(path):
            continue
        found.add(path)
        if pure.parts[0] == "src" and len(pure.parts) > 1:
            found.add(str(PurePosixPath(*pure.parts[1:])))
    return sorted(found)


def probe(python: list[str], root: Path, modules: list[str], names: set[str]) -> Environment | None:
    """Ask ``python`` (run in ``root``) what it holds; None when it cannot run."""
    wanted = json.dumps({"modules": modules, "names": sorted(names)})
    try:
        result = subprocess.run(
            [*python, "-c", PROBE],
            cwd=root,
            input=wanted,
            capture_output=True,
            text=True,
            timeout=PROBE_TIMEOUT_S,
            check=False,
        )
        data = json.loads(result.stdout) if result.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    installs = tuple(
        Install(
            name=item["name"],
            version=item["version"],
            editable=item["editable"],
            location=Path(item["location"]),
            matches=tuple(item["matches"]),
        )
        for item in data["installs"]
    )
    version = (int(data["version"][0]), int(data["version"][1]))
    return Environment(shlex.join(python), version, tuple(data["plugins"]), installs)


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def own_copies(environment: Environment, root: Path, venvs: list[str]) -> list[Install]:
    """Regular installs of the project: not editable, and not the checkout itself.

    An install located in the checkout outside its environments is the checkout's own
    tree (a legacy editable install), which the sandbox hides with the checkout.
    """
    folders = [(root / venv).resolve() for venv in venvs]
    found = []
    for install in environment.installs:
        where = install.location.resolve()
        in_checkout = _within(where, root) and not any(_within(where, f) for f in folders)
        if not install.editable and not in_checkout:
            found.append(install)
    return found


@dataclass(frozen=True)
class Probed:
    """The interpreter that runs pytest (None when it cannot be told) and the linked venvs."""

    runner: Environment | None
    venvs: tuple[Environment, ...]

    @property
    def plugins(self) -> tuple[str, ...]:
        """The pytest plugins installed where pytest runs."""
        return self.runner.plugins if self.runner else ()

    def all(self) -> list[Environment]:
        """Every environment probed."""
        return [*([self.runner] if self.runner else []), *self.venvs]


def probe_project(
    root: Path, sha: str, command: TestCommand, tracked: list[str], venvs: list[str]
) -> Probed:
    """Probe the pytest command's interpreter and each linked venv's ``bin/python``."""
    modules = project_modules(tracked)
    names = project_names(root, sha)
    words = interpreter(command, root) if command.kind == "pytest" else None
    runner = probe(words, root, modules, names) if words else None
    probed = {(root / words[0]).resolve()} if words and len(words) == 1 else set()
    found = []
    for venv in venvs:
        python = root / venv / "bin" / "python"
        if python.exists() and python.resolve() not in probed:
            found.append(probe([str(python)], root, modules, names))
    return Probed(runner, tuple(env for env in found if env is not None))


def refuse_own_installs(root: Path, probed: Probed, venvs: list[str], then: str) -> None:
    """A UsageError naming a regular install of the project, if there is one."""
    for environment in probed.all():
        for install in own_copies(environment, root, venvs):
            files = ", ".join(install.matches) or "its metadata"
            raise UsageError(
                f"the project itself is installed, not editable, where its tests run "
                f"({install.name} {install.version} in {install.location}, {files}; "
                f"seen by {environment.python}): that copy is HEAD's code, the answer to every "
                f"task, and an agent could read it. Uninstall it (pip uninstall {install.name}) "
                f"or install it editable (pip install -e .), then {then}"
            )


def check_safe_path(command: TestCommand, probed: Probed) -> None:
    """``python -P`` needs Python 3.11: an older interpreter is refused with a clear line."""
    runner = probed.runner
    if runner is None or command.kind != "pytest" or "-m pytest" not in command.prefix:
        return
    if runner.version < SAFE_PATH_VERSION:
        raise UsageError(
            f"the check runs pytest with '{runner.python} -P', which needs Python 3.11 or newer "
            f"({runner.python} is {runner.version[0]}.{runner.version[1]})"
        )
