"""The workspace's code index: symbols per file, refreshed when a file changes, with a look-up
and a compact map for the system prompt."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from garuda_evals_agent.index.symbols import LANGUAGES, Symbol, file_symbols
from garuda_evals_agent.messages import ToolSpec
from garuda_evals_agent.tools.paths import ToolError, relative, walk

MAX_FILE_BYTES = 1_000_000
LOOKUP_LIMIT = 50
MAP_LIMIT_CHARS = 6000

LOOKUP_TOOL = ToolSpec(
    "lookup_symbol",
    "Find functions, classes and methods by name in the code index (Python, JavaScript, "
    "TypeScript, Java): each with its file and line. Matches the name, Class.method, or a "
    "part of either (case-insensitive).",
    {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
)


class CodeIndex:
    """Symbols of every source file under ``workspace``; a changed file is parsed again."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace.resolve()
        self._files: dict[str, tuple[tuple[int, int], list[Symbol]]] = {}

    def symbols(self) -> list[Symbol]:
        """Every symbol, in file order; files are re-parsed only when their size or time changed."""
        seen: dict[str, tuple[tuple[int, int], list[Symbol]]] = {}
        for path in walk(self.workspace):
            language = LANGUAGES.get(path.suffix)
            if language is None:
                continue
            stat = path.stat()
            if stat.st_size > MAX_FILE_BYTES:
                continue
            name = relative(self.workspace, path)
            stamp = (stat.st_mtime_ns, stat.st_size)
            cached = self._files.get(name)
            if cached is None or cached[0] != stamp:
                source = path.read_text(encoding="utf-8", errors="replace")
                cached = (stamp, file_symbols(name, source, language))
            seen[name] = cached
        self._files = seen
        return [symbol for _, found in seen.values() for symbol in found]

    async def lookup(self, args: dict[str, Any]) -> str:
        """The ``lookup_symbol`` tool: exact matches first, then partial ones."""
        query = args.get("name")
        if not isinstance(query, str) or not query.strip():
            raise ToolError("name must be a non-empty string")
        wanted = query.strip().lower()
        symbols = self.symbols()
        exact = [s for s in symbols if wanted in (s.name.lower(), s.qualified.lower())]
        partial = [s for s in symbols if s not in exact and wanted in s.qualified.lower()]
        hits = (exact + partial)[:LOOKUP_LIMIT]
        if not hits:
            return f"no symbol matches '{query}' ({len(symbols)} symbols indexed)"
        more = len(exact) + len(partial) - len(hits)
        lines = [f"{s.path}:{s.line}  {s.kind} {s.qualified}" for s in hits]
        return "\n".join(lines) + (f"\n[{more} more matches]" if more > 0 else "")

    def code_map(self, limit: int = MAP_LIMIT_CHARS) -> str:
        """A compact map: each file with its top-level symbols and methods, cut at ``limit``."""
        by_file: dict[str, list[str]] = {}
        for symbol in self.symbols():
            by_file.setdefault(symbol.path, []).append(
                f"{symbol.qualified}:{symbol.line}"
                + ("()" if symbol.kind in ("function", "method") else "")
            )
        lines: list[str] = []
        used = 0
        for path, names in by_file.items():
            line = f"{path}: {', '.join(names)}"
            if used + len(line) > limit:
                lines.append(f"[map cut at {limit} characters; use lookup_symbol]")
                break
            lines.append(line)
            used += len(line) + 1
        return "\n".join(lines)
