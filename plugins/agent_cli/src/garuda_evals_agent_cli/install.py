"""Install a pinned CLI into a garuda-managed folder (never globally) and find it again."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from garuda_evals.api import GarudaError
from garuda_evals_agent_cli.adapters.base import Adapter

ROOT_VAR = "GARUDA_AGENTS_DIR"
MARKER = ".garuda-installed"
INSTALL_TIMEOUT_S = 900


def agents_root() -> Path:
    """``$GARUDA_AGENTS_DIR``, else ``$XDG_CACHE_HOME/garuda-evals/agents`` (``~/.cache``)."""
    if os.environ.get(ROOT_VAR):
        return Path(os.environ[ROOT_VAR]).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "garuda-evals" / "agents"


def install_dir(adapter: Adapter) -> Path:
    """``ROOT/NAME-VERSION``: one folder per pinned version."""
    return agents_root() / f"{adapter.name}-{adapter.package.version}"


def program_path(adapter: Adapter) -> Path | None:
    """The installed program, or None when ``garuda agents install NAME`` has not run."""
    folder = install_dir(adapter)
    program = folder / adapter.package.program
    if (folder / MARKER).exists() and program.exists():
        return program
    return None


def install_command(adapter: Adapter, folder: Path) -> list[list[str]]:
    """The commands that install the pinned package into ``folder``."""
    package = adapter.package
    if package.registry == "npm":
        npm = shutil.which("npm")
        if npm is None:
            raise GarudaError(f"{adapter.name} installs from npm: npm not found on PATH")
        return [
            [
                npm,
                "install",
                "--prefix",
                str(folder),
                "--no-audit",
                "--no-fund",
                "--no-update-notifier",
                f"{package.name}@{package.version}",
            ]
        ]
    venv = folder / "venv"
    pinned = f"{package.name}=={package.version}"
    uv = find_uv()
    if uv is not None:
        # uv resolves and installs aider's hundred packages in seconds; pip takes many minutes.
        return [
            [uv, "venv", "--quiet", "--python", sys.executable, str(venv)],
            [uv, "pip", "install", "--quiet", "--python", str(venv / "bin" / "python"), pinned],
        ]
    return [
        [sys.executable, "-m", "venv", str(venv)],
        [
            str(venv / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            pinned,
        ],
    ]


def find_uv() -> str | None:
    """uv on PATH, else the one installed beside this Python (a uv-made environment)."""
    found = shutil.which("uv")
    if found is not None:
        return found
    beside = Path(sys.executable).parent / "uv"
    return str(beside) if beside.exists() else None


def install(adapter: Adapter) -> Path:
    """Install the pinned version (kept when already there); return the program's path."""
    found = program_path(adapter)
    if found is not None:
        return found
    folder = install_dir(adapter)
    # Built in place (a virtual environment cannot move); the marker, written last, is what
    # makes it installed, so a broken install is never taken for a good one.
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for argv in install_command(adapter, folder):
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S, check=False
        )
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
            raise GarudaError(
                f"installing {adapter.package.name}@{adapter.package.version} failed "
                f"(exit {done.returncode}): {' | '.join(tail)}"
            )
    if not (folder / adapter.package.program).exists():
        raise GarudaError(
            f"{adapter.package.name}@{adapter.package.version} installed but "
            f"{adapter.package.program} is missing (no build for this platform?)"
        )
    (folder / MARKER).write_text(f"{adapter.package.name}@{adapter.package.version}\n")
    return folder / adapter.package.program


def version_of(program: Path) -> str | None:
    """What ``PROGRAM --version`` prints (first line), or None when it does not run."""
    try:
        done = subprocess.run(
            [str(program), "--version"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = (done.stdout or done.stderr).strip().splitlines()
    return lines[0] if done.returncode == 0 and lines else None
