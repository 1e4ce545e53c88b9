"""Environments built once per (repository, version, setup) into a cache, then linked into tasks.

``<cache>/<owner__name>/<version>-<setup digest>/`` holds ``src/`` (the repository at the
environment's commit, where ``setup`` runs), ``env/`` (what ``setup`` makes, ``{env}`` in its
commands) and ``done.json`` once every command succeeded. A build that fails leaves no
``done.json`` and its reason (the command and the end of its output) is returned: each
instance that needs it is skipped with that reason, and the next import tries again. A lock
file keeps two imports from building the same environment at once.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from garuda_evals.api import GarudaError
from garuda_evals_swebench.gitio import export_tree
from garuda_evals_swebench.recipe import Resolved

DONE = "done.json"
TAIL_LINES = 3


@dataclass(frozen=True)
class Environment:
    """A built environment (``path``) or why there is none (``reason``)."""

    key: str
    path: Path | None
    reason: str = ""
    built_s: float | None = None


def default_cache() -> Path:
    """``$XDG_CACHE_HOME/garuda-evals/swe-envs`` (``~/.cache`` without it)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "garuda-evals" / "swe-envs"


def env_key(repo: str, version: str | None, recipe: Resolved) -> str:
    """``owner__name/<version>-<setup digest>``."""
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", version or "none")
    return f"{repo.replace('/', '__')}/{safe}-{recipe.setup_digest()}"


def _tail(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return " | ".join(lines[-TAIL_LINES:])[:400]


def build_env(cache: Path, key: str, clone: Path, commit: str, recipe: Resolved) -> Environment:
    """The environment of ``key``, built now unless the cache has it."""
    folder = cache / key
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (folder / DONE).is_file():
            return Environment(key, folder / "env")
        return _build(folder, key, clone, commit, recipe)


def _build(folder: Path, key: str, clone: Path, commit: str, recipe: Resolved) -> Environment:
    started = time.monotonic()
    for stale in ("src", "env"):
        shutil.rmtree(folder / stale, ignore_errors=True)
    try:
        export_tree(clone, commit, folder / "src")
    except GarudaError as error:
        return Environment(key, None, f"cannot check out {commit[:12]}: {error}")
    env_dir = folder / "env"
    for number, command in enumerate(recipe.setup, 1):
        text = command.replace("{env}", str(env_dir))
        try:
            done = subprocess.run(
                ["/bin/bash", "-c", text],
                cwd=folder / "src",
                capture_output=True,
                text=True,
                timeout=recipe.setup_timeout_s,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return Environment(
                key,
                None,
                f"setup command {number} ({command!r}) ran past {recipe.setup_timeout_s:g} s",
            )
        if done.returncode != 0:
            why = _tail(done.stderr or done.stdout) or "no output"
            return Environment(
                key, None, f"setup command {number} ({command!r}) exited {done.returncode}: {why}"
            )
    if not env_dir.is_dir():
        return Environment(key, None, "the setup commands made no {env} folder")
    seconds = time.monotonic() - started
    record = {"setup": recipe.setup, "commit": commit, "seconds": round(seconds, 1)}
    (folder / DONE).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return Environment(key, env_dir, built_s=seconds)
