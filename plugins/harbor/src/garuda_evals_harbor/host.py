"""Does this host have what a Dockerfile installs? Each need is probed once per import.

Toolchains and Python packages are looked up as a check finds them: ``python3`` and
``node`` on the PATH checks get (``check_environment``: garuda's own environment first),
Python distributions installed for that ``python3``, Debian packages through ``dpkg-query``.
A python or node image needs the host's version at least as new (same major for Python).
"""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
from collections.abc import Iterable

from packaging.requirements import InvalidRequirement, Requirement
from packaging.version import InvalidVersion, Version

from garuda_evals.api import check_environment
from garuda_evals_harbor.dockerfile import Need

PROBE_TIMEOUT_S = 30.0
DIST_VERSIONS = (
    "import json, sys\n"
    "from importlib import metadata\n"
    "found = {}\n"
    "for name in sys.argv[1:]:\n"
    "    try:\n"
    "        found[name] = metadata.version(name)\n"
    "    except metadata.PackageNotFoundError:\n"
    "        found[name] = None\n"
    "print(json.dumps(found))\n"
)


def _run(argv: list[str]) -> str | None:
    env = check_environment()
    tool = shutil.which(argv[0], path=env.get("PATH"))
    if tool is None:
        return None
    try:
        done = subprocess.run(
            [tool, *argv[1:]],
            capture_output=True,
            text=True,
            env=env,
            timeout=PROBE_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


@functools.cache
def tool_version(tool: str) -> Version | None:
    """The version of ``python3`` or ``node`` that checks run (None: not found)."""
    if tool == "python3":
        text = _run(["python3", "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"])
    else:
        text = _run([tool, "--version"])
    if not text:
        return None
    try:
        return Version(text.strip().lstrip("v"))
    except InvalidVersion:
        return None


@functools.cache
def apt_installed(package: str) -> bool:
    """``dpkg-query`` says the Debian package is installed."""
    text = _run(["dpkg-query", "-W", "-f=${Status}", package])
    return text is not None and text.strip().endswith("installed") and "not-installed" not in text


def python_versions(names: Iterable[str]) -> dict[str, str | None]:
    """The installed version of each Python distribution for the checks' ``python3``."""
    wanted = sorted(set(names))
    if not wanted:
        return {}
    text = _run(["python3", "-c", DIST_VERSIONS, *wanted])
    if text is None:
        return dict.fromkeys(wanted)
    found: dict[str, str | None] = json.loads(text)
    return found


def _toolchain(need: Need) -> str | None:
    have = tool_version(need.name)
    if have is None:
        return (
            f"{need.name} is not on this host (FROM asks for {need.kind} {need.version})".replace(
                " )", ")"
            )
        )
    if not need.version:
        return None
    wanted = Version(need.version)
    if need.kind == "python":
        same = have.major == wanted.major and have.minor >= (wanted.minor or 0)
        if not same:
            return f"FROM asks for Python {need.version}; this host's python3 is {have}"
    elif have.major < wanted.major:
        return f"FROM asks for node {need.version}; this host's node is {have}"
    return None


def missing(needs: list[Need]) -> tuple[Need, str] | None:
    """The first need this host does not meet, and why (None: it meets them all)."""
    pips: dict[str, Requirement] = {}
    for need in needs:
        if need.kind in ("python", "node"):
            problem = _toolchain(need)
            if problem:
                return need, problem
        elif need.kind == "apt" and not apt_installed(need.name):
            return need, f"the Debian package {need.name} is not installed on this host"
        elif need.kind == "pip":
            try:
                pips[need.name] = Requirement(need.name)
            except InvalidRequirement:
                return need, f"pip install {need.name}: not a requirement this import can read"
    versions = python_versions(req.name for req in pips.values())
    for need in needs:
        if need.kind != "pip":
            continue
        requirement = pips[need.name]
        have = versions.get(requirement.name)
        if have is None:
            return need, (
                f"the Python package {requirement.name} is not installed for this host's "
                "python3 (the checks' interpreter)"
            )
        if requirement.specifier and not requirement.specifier.contains(have, prereleases=True):
            return need, (
                f"the Python package {requirement.name} {requirement.specifier} is wanted; "
                f"this host's python3 has {have}"
            )
    return None
