"""Test support: a regular (non-editable) install of a garuda uv workspace.

``uv sync --no-editable --offline`` into a virtual environment inside a project folder (with
``.git``). Under the system /tmp, which the sandbox replaces with its own, the environment
is a toolchain inside a hidden folder, and each plugin's suite data lies in its site-packages.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class RegularInstall:
    """The project holding the environment, another project, and the environment itself."""

    project: Path
    elsewhere: Path
    venv: Path

    @property
    def site(self) -> Path:
        """The environment's site-packages."""
        return next((self.venv / "lib").glob("python3*/site-packages"))

    def env(self) -> dict[str, str]:
        """A user's shell with this environment first on PATH (nothing of the caller's venv)."""
        keep = {k: v for k, v in os.environ.items() if k in ("HOME", "LANG", "TERM", "USER")}
        path = f"{self.venv / 'bin'}:/usr/local/bin:/usr/bin:/bin"
        return {**keep, "PATH": path, "VIRTUAL_ENV": str(self.venv)}


def find_uv() -> str | None:
    """The uv beside the running interpreter, else the one on PATH."""
    beside = Path(sys.executable).parent / "uv"
    return str(beside) if beside.exists() else shutil.which("uv")


PACKAGES = (
    "garuda-evals",
    "garuda-evals-python",
    "garuda-evals-sandbox",
    "garuda-evals-sandbox-bwrap",
)


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> None:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed:\n{done.stdout}{done.stderr}")


def install_regular(
    uv: str, workspace: Path, base: Path, packages: tuple[str, ...] = PACKAGES
) -> RegularInstall:
    """Install ``packages`` of ``workspace`` as built wheels into ``base/project/.venv``.

    The locked third-party dependencies come first (``--no-install-workspace``), then each
    package's wheel is built from the current sources and installed without dependencies:
    offline, and never a stale build from uv's cache.
    """
    made = RegularInstall(base / "project", base / "elsewhere", base / "project" / ".venv")
    for project in (made.project, made.elsewhere):
        (project / ".git").mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "UV_PROJECT_ENVIRONMENT": str(made.venv)}
    env.pop("VIRTUAL_ENV", None)
    sync = ["sync", "--offline", "--locked", "--all-packages", "--no-dev", "--no-install-workspace"]
    _run([uv, *sync, "-q"], workspace, env)
    wheels = base / "wheels"
    for package in packages:
        build = ["build", "--offline", "-q", "--wheel", "--package", package]
        _run([uv, *build, "--out-dir", str(wheels)], workspace, env)
    python = str(made.venv / "bin" / "python")
    found = [str(wheel) for wheel in sorted(wheels.glob("*.whl"))]
    _run(
        [uv, "pip", "install", "--offline", "-q", "--no-deps", "--python", python, *found],
        base,
        env,
    )
    return made
