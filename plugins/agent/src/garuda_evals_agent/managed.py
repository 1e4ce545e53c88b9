"""Tools garuda installs for the agent's A/B features, pinned, in a folder of its own.

Biome (``--format``) and the language servers (``--lsp``) come from the package registries
at fixed versions into ``$GARUDA_TOOLS_DIR`` (default ``~/.cache/garuda-evals/tools``), one
folder per tool and version, never into the project. ``garuda lsp --install`` installs them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

TOOLS_VAR = "GARUDA_TOOLS_DIR"
INSTALL_TIMEOUT_S = 600.0


def tools_dir() -> Path:
    """The garuda-managed tools folder."""
    configured = os.environ.get(TOOLS_VAR, "").strip()
    if configured:
        return Path(configured).expanduser().resolve()
    return Path.home() / ".cache" / "garuda-evals" / "tools"


class InstallError(RuntimeError):
    """A managed tool could not be installed; the message says which and why."""


@dataclass(frozen=True)
class ManagedTool:
    """One pinned tool: ``npm`` packages or a ``pip`` package, and the program it provides."""

    name: str
    version: str
    kind: str  # "npm" or "pip"
    packages: tuple[str, ...]
    program: str

    @property
    def folder(self) -> Path:
        """Where this version lives."""
        return tools_dir() / f"{self.name}-{self.version}"

    @property
    def path(self) -> Path:
        """The program's path once installed."""
        if self.kind == "npm":
            return self.folder / "node_modules" / ".bin" / self.program
        return self.folder / "venv" / "bin" / self.program

    def installed(self) -> bool:
        """True when the program is there."""
        return self.path.is_file()

    def install(self) -> Path:
        """Install into ``folder`` (a partial install is removed); return the program's path."""
        if self.installed():
            return self.path
        self.folder.mkdir(parents=True, exist_ok=True)
        try:
            for command in self._commands():
                done = subprocess.run(
                    command,
                    cwd=self.folder,
                    capture_output=True,
                    text=True,
                    timeout=INSTALL_TIMEOUT_S,
                    check=False,
                )
                if done.returncode != 0:
                    tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
                    raise InstallError(
                        f"installing {self.name} {self.version} failed "
                        f"({' '.join(command[:3])} ...): {' / '.join(tail)}"
                    )
        except (OSError, subprocess.TimeoutExpired, InstallError) as error:
            shutil.rmtree(self.folder, ignore_errors=True)
            if isinstance(error, InstallError):
                raise
            raise InstallError(f"installing {self.name} {self.version} failed: {error}") from error
        if not self.installed():
            shutil.rmtree(self.folder, ignore_errors=True)
            raise InstallError(f"installing {self.name} {self.version} gave no {self.program}")
        return self.path

    def _commands(self) -> list[list[str]]:
        if self.kind == "npm":
            npm = shutil.which("npm")
            if npm is None:
                raise InstallError(f"{self.name} needs npm, which is not on PATH")
            return [
                [npm, "install", "--prefix", str(self.folder), "--no-audit", "--no-fund",
                 "--no-save", "--loglevel=error", *self.packages],
            ]  # fmt: skip
        venv = self.folder / "venv"
        return [
            [sys.executable, "-m", "venv", str(venv)],
            [str(venv / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check",
             *self.packages],
        ]  # fmt: skip


BIOME = ManagedTool("biome", "2.6.8", "npm", ("@biomejs/biome@2.6.8",), "biome")
PYRIGHT = ManagedTool(
    "basedpyright", "1.40.2", "pip", ("basedpyright==1.40.2",), "basedpyright-langserver"
)
TYPESCRIPT_LS = ManagedTool(
    "typescript-language-server",
    "5.3.0",
    "npm",
    ("typescript-language-server@5.3.0", "typescript@5.9.3"),
    "typescript-language-server",
)
