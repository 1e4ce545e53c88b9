"""Go under the OS sandbox: the module cache read-only, and a build cache per check.

The sandbox empties the user's home, where Go keeps its module cache (``go env GOMODCACHE``)
and its build cache (``go env GOCACHE``). A module with dependencies needs the first: it is
shown read-only and named in the check (``GOMODCACHE``, with ``GOPROXY=off`` so nothing is
fetched). The build cache is never the user's: it holds the project's own packages compiled
at HEAD, the answer to every task, and an entry written there by an agent would be trusted
by later builds. The check copies a warm base (``$XDG_CACHE_HOME/garuda/go-build``, only the
standard library and the dependencies, filled on the host before the agent starts, read-only
in the sandbox) into a fresh folder of its own, so compiling starts warm and nothing an agent
writes outlives its check.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

GO_TIMEOUT_S = 600.0
# Packages the tests need that are not the module's own: the standard library's and the
# dependencies' (``go list`` prints an empty line for the module's own).
NOT_OWN = "{{if or .Standard (and .Module (not .Module.Main))}}{{.ImportPath}}{{end}}"


def go_env(name: str) -> str | None:
    """``go env NAME`` on the host (None when go is missing or says nothing)."""
    go = shutil.which("go")
    if go is None:
        return None
    try:
        done = subprocess.run(
            [go, "env", name], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    value = done.stdout.strip()
    return value or None


def base_cache() -> Path:
    """The warm build cache garuda owns (never the user's ``GOCACHE``)."""
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return home / "garuda" / "go-build"


def warm(workspace: Path, base: Path, modcache: str | None) -> None:
    """Compile into ``base`` what the workspace's tests need besides the module's own code.

    Runs on the host before the agent's turn, on a tree that holds no agent file yet; a
    failure only leaves the check to compile more itself.
    """
    go = shutil.which("go")
    if go is None or not (workspace / "go.mod").is_file():
        return
    base.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "GOCACHE": str(base), "GOFLAGS": "-mod=readonly", "GOPROXY": "off"}
    if modcache:
        env["GOMODCACHE"] = modcache
    try:
        listed = subprocess.run(
            [go, "list", "-deps", "-test", "-f", NOT_OWN, "./..."],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
            timeout=GO_TIMEOUT_S,
            check=False,
        )
        packages = sorted({line for line in listed.stdout.split() if line})
        if packages:
            subprocess.run(
                [go, "build", *packages],
                cwd=workspace,
                env=env,
                capture_output=True,
                timeout=GO_TIMEOUT_S,
                check=False,
            )
    except (OSError, subprocess.TimeoutExpired):
        return
