"""``--format on|off`` (JavaScript/TypeScript workspaces): Biome, pinned and garuda-managed.

Both arms start from the same code: before the agent starts, every JavaScript/TypeScript file
that the task does not protect is formatted once with garuda's ``biome.json`` (kept in the
managed folder, not in the workspace). With ``on``, each file the agent writes or edits is
formatted again and the tool result says so. Biome runs on the host: it is garuda's own
program and runs no project code.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterable
from pathlib import Path

from garuda_evals_agent.managed import BIOME, ManagedTool
from garuda_evals_agent.tools.paths import relative, walk

SUFFIXES = frozenset({".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"})
CONFIG = {
    "formatter": {"enabled": True, "indentStyle": "space", "indentWidth": 2, "lineWidth": 100},
    "linter": {"enabled": False},
    "assist": {"enabled": False},
    "vcs": {"enabled": False},
    "files": {"ignoreUnknown": True},
}
FORMAT_TIMEOUT_S = 60.0


def applies(workspace: Path) -> bool:
    """True for a JavaScript/TypeScript project (a ``package.json`` at its root)."""
    return (workspace / "package.json").is_file()


class Formatter:
    """Formats files of one workspace with a pinned Biome."""

    def __init__(self, workspace: Path, protected: Iterable[str], tool: ManagedTool = BIOME):
        from garuda_evals.api import is_protected

        self.workspace = workspace.resolve()
        self.tool = tool
        self._protected = list(protected)
        self._is_protected = is_protected
        self.config = tool.folder / "biome.json"

    def describe(self) -> str:
        """``biome 2.6.8``."""
        return f"{self.tool.name} {self.tool.version}"

    def wanted(self, path: Path) -> bool:
        """A JavaScript/TypeScript file inside the workspace that the task does not protect."""
        resolved = path.resolve()
        if resolved.suffix not in SUFFIXES or not resolved.is_relative_to(self.workspace):
            return False
        return not self._is_protected(relative(self.workspace, resolved), self._protected)

    def format_project(self) -> int:
        """Format every wanted file once; return how many there were."""
        files = [path for path in walk(self.workspace) if self.wanted(path)]
        if files:
            self._run(files)
        return len(files)

    def format_file(self, path: Path) -> str | None:
        """Format one edited file; the note for the tool result, or None when not wanted."""
        if not path.is_file() or not self.wanted(path):
            return None
        before = path.read_bytes()
        error = self._run([path], raise_errors=False)
        if error:
            return f"Biome could not format {relative(self.workspace, path)}: {error}"
        changed = path.read_bytes() != before
        return f"formatted with Biome ({'changed' if changed else 'already formatted'})"

    def _run(self, files: list[Path], raise_errors: bool = True) -> str | None:
        program = self.tool.install()
        self.config.write_text(json.dumps(CONFIG, indent=2) + "\n")
        done = subprocess.run(
            [str(program), "format", "--write", f"--config-path={self.config}",
             "--no-errors-on-unmatched", *map(str, files)],
            cwd=self.workspace, capture_output=True, text=True, timeout=FORMAT_TIMEOUT_S,
            check=False,
        )  # fmt: skip
        if done.returncode == 0:
            return None
        text = " ".join((done.stderr or done.stdout).split())[:400]
        if raise_errors:
            from garuda_evals.api import UsageError

            raise UsageError(f"Biome failed on the workspace: {text}")
        return text
