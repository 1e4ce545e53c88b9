"""The environment that checks, probes and agent commands see: an allow-list, never the whole."""

from __future__ import annotations

import functools
import os
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path

DEFAULT_ALLOW = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TERM", "USER", "LOGNAME", "TZ")
TOOLCHAIN_VARS = ("JAVA_HOME", "GRADLE_USER_HOME", "VIRTUAL_ENV")
ENV_ALLOW = DEFAULT_ALLOW + TOOLCHAIN_VARS


@functools.lru_cache(maxsize=16)
def _java_on_path(path: str | None) -> str | None:
    """The JDK of the ``java`` found on ``path``: looked up once per PATH in a process (every
    run and check of an eval asks)."""
    java = shutil.which("java", path=path)
    if not java:
        return None
    home = Path(java).resolve().parent.parent
    return str(home) if (home / "bin" / "java").exists() else None


def _java_home(source: Mapping[str, str]) -> str | None:
    if source.get("JAVA_HOME"):
        return source["JAVA_HOME"]
    return _java_on_path(source.get("PATH"))


def _virtual_env(source: Mapping[str, str]) -> str | None:
    if source.get("VIRTUAL_ENV"):
        return source["VIRTUAL_ENV"]
    if sys.prefix != sys.base_prefix:
        return sys.prefix
    return None


def check_environment(source: Mapping[str, str] | None = None) -> dict[str, str]:
    """The default allow-list plus JAVA_HOME, GRADLE_USER_HOME and VIRTUAL_ENV.

    When garuda runs from a virtual environment that is not activated, that environment
    becomes VIRTUAL_ENV and its ``bin`` leads PATH, so ``python3`` in a check is the
    interpreter that has the python toolchain's pytest.
    """
    source = os.environ if source is None else source
    env = {name: source[name] for name in DEFAULT_ALLOW if source.get(name)}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    env.setdefault("LANG", "C.UTF-8")
    java_home = _java_home(source)
    if java_home:
        env["JAVA_HOME"] = java_home
    if source.get("GRADLE_USER_HOME"):
        env["GRADLE_USER_HOME"] = source["GRADLE_USER_HOME"]
    virtual_env = _virtual_env(source)
    if virtual_env:
        env["VIRTUAL_ENV"] = virtual_env
        venv_bin = str(Path(virtual_env) / "bin")
        parts = [p for p in env["PATH"].split(os.pathsep) if p != venv_bin]
        env["PATH"] = os.pathsep.join([venv_bin, *parts])
    return env
