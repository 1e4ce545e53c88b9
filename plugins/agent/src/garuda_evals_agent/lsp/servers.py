"""The language servers of ``--lsp on``: which file goes to which server, and its diagnostics.

Servers are garuda-managed (``managed.py``) and run through the task's executor, so inside
the OS sandbox: ``probe.py`` (standard library only, copied next to the servers) starts the
server, opens the edited file and prints the diagnostics it publishes.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from garuda_evals.api import AgentTurn
from garuda_evals_agent.managed import PYRIGHT, TYPESCRIPT_LS, ManagedTool, tools_dir

PROBE_TIMEOUT_S = 180.0
MAX_SHOWN = 20
JDTLS_MISSING = (
    "jdtls is not available: it needs JDK 21 and the Eclipse download, which garuda does not "
    "install from the package registries; Java files get no diagnostics"
)


@dataclass(frozen=True)
class LanguageServer:
    """A server for some file suffixes; ``tool`` is None when none can be had here."""

    language: str
    suffixes: dict[str, str]  # suffix -> LSP languageId
    tool: ManagedTool | None
    args: tuple[str, ...] = ()
    sample: tuple[str, str] = ("", "")  # a file with one type error, for ``garuda lsp``
    missing: str = ""

    def describe(self) -> str:
        """``basedpyright 1.40.2`` or why there is none."""
        if self.tool is None:
            return self.missing
        return f"{self.tool.name} {self.tool.version}"

    def command(self) -> list[str]:
        """The server's command line (stdio)."""
        assert self.tool is not None
        return [str(self.tool.path), *self.args]


SERVERS = (
    LanguageServer(
        "python",
        {".py": "python"},
        PYRIGHT,
        ("--stdio",),
        ("sample.py", "def add(a: int, b: int) -> int:\n    return a + b\n\nx: str = add(1, 2)\n"),
    ),
    LanguageServer(
        "javascript/typescript",
        {
            ".ts": "typescript",
            ".mts": "typescript",
            ".cts": "typescript",
            ".tsx": "typescriptreact",
            ".js": "javascript",
            ".mjs": "javascript",
            ".cjs": "javascript",
            ".jsx": "javascriptreact",
        },
        TYPESCRIPT_LS,
        ("--stdio",),
        (
            "sample.ts",
            "function add(a: number, b: number): number {\n  return a + b;\n}\n"
            "const s: string = add(1, 2);\n",
        ),
    ),
    LanguageServer("java", {".java": "java"}, None, missing=JDTLS_MISSING),
)


def server_for(path: Path) -> LanguageServer | None:
    """The server of ``path``'s language, or None."""
    return next((s for s in SERVERS if path.suffix in s.suffixes), None)


def installed_servers() -> list[LanguageServer]:
    """The servers whose program is installed."""
    return [s for s in SERVERS if s.tool is not None and s.tool.installed()]


def probe_script() -> Path:
    """``probe.py`` copied into the managed folder (the sandbox shows that folder)."""
    source = (Path(__file__).parent / "probe.py").read_bytes()
    target = tools_dir() / f"lsp-probe-{hashlib.sha256(source).hexdigest()[:12]}" / "probe.py"
    if not target.is_file() or target.read_bytes() != source:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(source)
    return target


def probe_command(server: LanguageServer, root: Path, file: Path, python: str) -> list[str]:
    """The probe's command line for one file."""
    language = server.suffixes[file.suffix]
    return [python, str(probe_script()), str(root), str(file), language, "--", *server.command()]


def summarize(server: LanguageServer, file: str, output: str) -> str:
    """The note for the tool result: ``LSP (...): No errors`` or the errors, one a line."""
    name = server.describe()
    try:
        result = json.loads(output.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return f"LSP ({name}): the server gave no answer: {' '.join(output.split())[:300]}"
    if not result.get("ok"):
        return f"LSP ({name}): the server failed: {result.get('error')}"
    errors = [d for d in result["diagnostics"] if d.get("severity", 1) == 1]
    if not errors:
        return f"LSP ({name}): No errors"
    lines = [f"{file}:{d['line']}:{d['column']}: {' '.join(d['message'].split())}" for d in errors]
    more = f"\n  [{len(lines) - MAX_SHOWN} more]" if len(lines) > MAX_SHOWN else ""
    return f"LSP ({name}): {len(errors)} error(s):\n  " + "\n  ".join(lines[:MAX_SHOWN]) + more


async def diagnose(turn: AgentTurn, path: Path) -> str | None:
    """Diagnostics of the edited file through the task's executor, or None for other files."""
    server = server_for(path)
    if server is None:
        return None
    if server.tool is None or not server.tool.installed():
        return f"LSP: no server for {path.suffix} files ({server.describe()})"
    workspace = Path(turn.workspace).resolve()
    command = probe_command(server, workspace, path, "python3")
    result = await turn.executor.run(
        shlex.join(command), cwd=workspace, env=dict(turn.env), timeout_s=PROBE_TIMEOUT_S
    )
    if result.timed_out:
        return f"LSP ({server.describe()}): no answer within {PROBE_TIMEOUT_S:.0f} s"
    return summarize(server, path.relative_to(workspace).as_posix(), result.output)


def check_server(server: LanguageServer) -> tuple[bool, str]:
    """Run the installed server on its sample file (one type error) on this machine."""
    if server.tool is None:
        return False, server.missing
    if not server.tool.installed():
        return False, "not installed (garuda lsp --install)"
    name, text = server.sample
    with tempfile.TemporaryDirectory(prefix="garuda-lsp-") as folder:
        root = Path(folder)
        (root / name).write_text(text)
        done = subprocess.run(
            probe_command(server, root, root / name, sys.executable),
            capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, check=False,
        )  # fmt: skip
        note = summarize(server, name, done.stdout or done.stderr)
    works = "1 error(s)" in note
    return works, note.replace("\n  ", " | ")
