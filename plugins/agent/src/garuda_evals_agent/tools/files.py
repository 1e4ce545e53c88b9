"""File tools: read, list, search, write, and edit by exact replacement."""

from __future__ import annotations

import re
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from garuda_evals_agent.tools.paths import ToolError, inside, relative, walk

READ_LINE_LIMIT = 2000
LIST_LIMIT = 500
SEARCH_LIMIT = 200


def _text(path: Path, name: str) -> str:
    if not path.is_file():
        raise ToolError(f"{name}: no such file")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ToolError(f"{name}: not a UTF-8 text file") from error


def read_file(workspace: Path, args: dict[str, Any]) -> str:
    """Lines ``offset`` (1-based) to ``offset + limit - 1``, numbered."""
    path = inside(workspace, args.get("path", ""))
    lines = _text(path, args["path"]).splitlines()
    offset = max(1, int(args.get("offset") or 1))
    limit = min(READ_LINE_LIMIT, max(1, int(args.get("limit") or READ_LINE_LIMIT)))
    chosen = lines[offset - 1 : offset - 1 + limit]
    body = "\n".join(f"{offset + i:>5}  {line}" for i, line in enumerate(chosen))
    rest = len(lines) - (offset - 1 + len(chosen))
    more = f"\n[{rest} more lines; read on with offset={offset + len(chosen)}]" if rest > 0 else ""
    return (body or "(empty file)") + more


def list_files(workspace: Path, args: dict[str, Any]) -> str:
    """Files under ``path`` (default the workspace), one relative path a line."""
    root = inside(workspace, args.get("path") or ".")
    if not root.is_dir():
        raise ToolError(f"{args.get('path')}: not a folder")
    files = [relative(workspace, path) for path in walk(root, LIST_LIMIT + 1)]
    shown = files[:LIST_LIMIT]
    more = f"\n[more than {LIST_LIMIT} files; list a subfolder]" if len(files) > LIST_LIMIT else ""
    return ("\n".join(shown) or "(no files)") + more


def search_files(workspace: Path, args: dict[str, Any]) -> str:
    """Lines matching the regular expression ``pattern``, as ``file:line: text``."""
    try:
        pattern = re.compile(args.get("pattern", ""))
    except re.error as error:
        raise ToolError(f"bad regular expression: {error}") from error
    root = inside(workspace, args.get("path") or ".")
    glob = args.get("glob") or "*"
    hits: list[str] = []
    for path in walk(root) if root.is_dir() else [root]:
        if not fnmatch(path.name, glob):
            continue
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (UnicodeDecodeError, OSError):
            continue
        for number, line in enumerate(lines, 1):
            if pattern.search(line):
                hits.append(f"{relative(workspace, path)}:{number}: {line[:300]}")
                if len(hits) >= SEARCH_LIMIT:
                    return "\n".join(hits) + f"\n[stopped at {SEARCH_LIMIT} matches]"
    return "\n".join(hits) or "(no matches)"


def write_file(workspace: Path, args: dict[str, Any]) -> str:
    """Write ``content`` to ``path``, making folders as needed."""
    path = inside(workspace, args.get("path", ""))
    content = args.get("content")
    if not isinstance(content, str):
        raise ToolError("content must be a string")
    if path.is_dir():
        raise ToolError(f"{args['path']}: is a folder")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    return f"wrote {relative(workspace, path)} ({len(content.splitlines())} lines)"


def edit_file(workspace: Path, args: dict[str, Any]) -> str:
    """Replace the exact ``old_text`` with ``new_text``; it must occur once (or replace_all)."""
    path = inside(workspace, args.get("path", ""))
    old, new = args.get("old_text"), args.get("new_text")
    if not isinstance(old, str) or not old or not isinstance(new, str):
        raise ToolError("old_text must be non-empty text and new_text text")
    text = _text(path, args["path"])
    count = text.count(old)
    if count == 0:
        raise ToolError(
            f"{args['path']}: old_text not found (it must match exactly, whitespace too)"
        )
    if count > 1 and not args.get("replace_all"):
        raise ToolError(
            f"{args['path']}: old_text occurs {count} times; add context or set replace_all"
        )
    path.write_text(text.replace(old, new), encoding="utf-8")
    return f"edited {relative(workspace, path)} ({count} replacement{'s' if count > 1 else ''})"
