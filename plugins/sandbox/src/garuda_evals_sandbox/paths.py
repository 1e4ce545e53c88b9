"""Which folders the sandbox shows (system, toolchains) and which it hides (homes, secrets)."""

from __future__ import annotations

import functools
import os
import shutil
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

SYSTEM_TMP = Path("/tmp")
SYSTEM_DIRS = tuple(Path(p) for p in ("/usr", "/etc", "/bin", "/lib", "/dev", "/proc"))
# What every command sees of the system, read-only (those that exist here).
SYSTEM_ROOTS = tuple(
    Path(p) for p in ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
)
# Toolchain commands whose install folder is shown when it lies outside the system folders
# (``/usr/local/bin/node`` a link into ``/opt/node-v22``).
TOOLS = ("python3", "python", "node", "npm", "npx", "java", "javac", "mvn", "gradle", "git", "uv")
TOOLCHAIN_HOMES = ("JAVA_HOME", "GRADLE_USER_HOME", "M2_HOME", "MAVEN_HOME")


def canonical(path: Path | str) -> Path:
    """An absolute path with every symlink resolved (bwrap resolves mount targets inside)."""
    return Path(os.path.realpath(os.path.expanduser(str(path))))


def is_within(path: Path, root: Path) -> bool:
    """True when ``path`` is ``root`` or lies under it (both absolute and normalised)."""
    inner, outer = str(path), str(root)
    return inner == outer or inner.startswith(outer.rstrip("/") + "/")


@functools.lru_cache(maxsize=1)
def _system_roots() -> tuple[Path, ...]:
    return tuple(canonical(root) for root in SYSTEM_ROOTS)


def in_system(path: Path) -> bool:
    """True when ``path`` lies in a system folder every command sees anyway."""
    return any(is_within(path, root) for root in _system_roots())


def can_hide(path: Path) -> bool:
    """False for ``/`` and any folder holding the system: hiding it would break every command."""
    return not any(is_within(system, path) for system in SYSTEM_DIRS)


def hidden_paths(paths: Iterable[Path | str]) -> list[Path]:
    """``policy.hidden`` canonicalised, without the ones that cannot be hidden."""
    return [path for path in (canonical(p) for p in paths) if can_hide(path)]


def account_home() -> str:
    """The account's home in the password database ("" when there is none).

    Java takes ``user.home`` from there, not from HOME, so Maven reads its local repository
    (``~/.m2``) under this folder whatever HOME says.
    """
    try:
        import pwd
    except ImportError:  # not a POSIX system
        return ""
    try:
        return pwd.getpwuid(os.getuid()).pw_dir
    except KeyError:  # a uid with no entry (some containers)
        return ""


def homes(env: Mapping[str, str]) -> list[Path]:
    """The user's home, the account's home and the HOME the command sees: each that is a real
    folder but ``/`` (its ``.m2`` is shown, the rest of it hidden)."""
    found: list[Path] = []
    for raw in (os.path.expanduser("~"), account_home(), env.get("HOME", "")):
        if not raw:
            continue
        home = canonical(raw)
        if can_hide(home) and home.is_dir() and home not in found:
            found.append(home)
    return found


def venv_base(venv: Path) -> Path | None:
    """The interpreter prefix a virtual environment was made from (``home`` in pyvenv.cfg)."""
    try:
        lines = (venv / "pyvenv.cfg").read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    for line in lines:
        key, _, value = line.partition("=")
        if key.strip() == "home" and value.strip():
            return canonical(value.strip()).parent
    return None


def _path_entry_root(entry: Path, hiding: list[Path]) -> Path:
    """``~/.nvm/versions/node/v22/bin`` gives its prefix; ``~/.local/bin`` only itself.

    A prefix directly inside a hidden folder (``~/.local``, ``~/.cargo``) may hold secrets,
    so only its ``bin`` is shown; so is a ``bin`` whose prefix would be ``/``.
    """
    prefix = entry.parent
    if entry.name != "bin" or prefix == Path(prefix.anchor):
        return entry
    if prefix not in hiding and prefix.parent not in hiding:
        return prefix
    return entry


def python_prefixes(env: Mapping[str, str]) -> list[Path]:
    """The Python environment of the run (``sys.prefix`` and its base) and ``VIRTUAL_ENV``."""
    found = [canonical(sys.prefix), canonical(sys.base_prefix)]
    venv = env.get("VIRTUAL_ENV")
    if venv:
        found.append(canonical(venv))
        base = venv_base(canonical(venv))
        if base is not None:
            found.append(base)
    return list(dict.fromkeys(found))


def _tool_roots(env: Mapping[str, str], hiding: list[Path]) -> list[Path]:
    """Where the toolchain commands on PATH really live (links resolved)."""
    found = []
    for tool in TOOLS:
        where = shutil.which(tool, path=env.get("PATH", ""))
        if where:
            found.append(_path_entry_root(canonical(where).parent, hiding))
    return found


def toolchain_candidates(env: Mapping[str, str], hiding: list[Path]) -> list[Path]:
    """Folders a check needs to read: the Python environment, JDK, Gradle, Maven, PATH."""
    found: list[Path] = python_prefixes(env)
    found += [canonical(env[name]) for name in TOOLCHAIN_HOMES if env.get(name)]
    for entry in env.get("PATH", "").split(os.pathsep):
        if entry and os.path.isabs(entry):
            found.append(_path_entry_root(canonical(entry), hiding))
    found += _tool_roots(env, hiding)
    for home in homes(env):
        found += [home / ".m2" / "repository", home / ".m2" / "settings.xml"]
    return list(dict.fromkeys(found))


def rebinds(candidates: Iterable[Path], hiding: list[Path]) -> list[Path]:
    """The existing candidates that lie inside a hidden folder, outermost only, sorted."""
    inside = {
        path
        for path in candidates
        if path.exists() and any(is_within(path, root) and path != root for root in hiding)
    }
    outermost = [p for p in inside if not any(o != p and is_within(p, o) for o in inside)]
    return sorted(outermost)
