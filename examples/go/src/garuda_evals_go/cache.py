"""The shared Go caches: filled once by ``garuda eval --prepare go``, read-only in checks."""

import os
from pathlib import Path

ROOT_VAR = "GARUDA_GO_CACHE"
COLD_VAR = "GARUDA_GO_COLD"


def cache_root() -> Path:
    """``$GARUDA_GO_CACHE``, else ``$XDG_CACHE_HOME/garuda-evals/go`` (``~/.cache``)."""
    if os.environ.get(ROOT_VAR):
        return Path(os.environ[ROOT_VAR])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "garuda-evals" / "go"


def build_cache() -> Path:
    """GOCACHE: compiled packages, shared by every check."""
    return cache_root() / "build"


def module_cache() -> Path:
    """GOMODCACHE: the modules the tasks depend on (checks run with GOPROXY=off)."""
    return cache_root() / "mod"


def cold() -> bool:
    """``GARUDA_GO_COLD=1``: each check builds in a cache of its own (for the bench)."""
    return os.environ.get(COLD_VAR) == "1"
