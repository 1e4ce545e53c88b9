"""The tool list the model sees, and the dispatcher that runs one call."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from garuda_evals.api import AgentTurn
from garuda_evals_agent.messages import ToolCall, ToolSpec
from garuda_evals_agent.tools import files
from garuda_evals_agent.tools.approver import Approver
from garuda_evals_agent.tools.command import run_command
from garuda_evals_agent.tools.output import clip
from garuda_evals_agent.tools.paths import ToolError, inside


def _schema(required: list[str], **properties: dict[str, object]) -> dict[str, object]:
    return {"type": "object", "properties": properties, "required": required}


_PATH = {"type": "string", "description": "path relative to the workspace"}

TOOLS = [
    ToolSpec(
        "read_file",
        "Read a text file. Lines are numbered; use offset and limit for long files.",
        _schema(["path"], path=_PATH, offset={"type": "integer"}, limit={"type": "integer"}),
    ),
    ToolSpec(
        "list_files",
        "List the files under a folder (default: the whole workspace).",
        _schema([], path=_PATH),
    ),
    ToolSpec(
        "search_files",
        "Search files for a regular expression; glob filters file names (for example *.py).",
        _schema(["pattern"], pattern={"type": "string"}, path=_PATH, glob={"type": "string"}),
    ),
    ToolSpec(
        "write_file",
        "Create or overwrite a file with the given content.",
        _schema(["path", "content"], path=_PATH, content={"type": "string"}),
    ),
    ToolSpec(
        "edit_file",
        "Replace old_text with new_text in a file. old_text must match exactly and occur once "
        "(or set replace_all).",
        _schema(
            ["path", "old_text", "new_text"],
            path=_PATH,
            old_text={"type": "string"},
            new_text={"type": "string"},
            replace_all={"type": "boolean"},
        ),
    ),
    ToolSpec(
        "run_command",
        "Run a shell command (bash) in the workspace and return its exit code and output. "
        "No network. timeout_s defaults to 120.",
        _schema(["command"], command={"type": "string"}, timeout_s={"type": "number"}),
    ),
]

READ_ONLY = ("read_file", "list_files", "search_files")

_FILE_TOOLS = {
    "read_file": files.read_file,
    "list_files": files.list_files,
    "search_files": files.search_files,
    "write_file": files.write_file,
    "edit_file": files.edit_file,
}


@dataclass(frozen=True)
class ToolOutcome:
    """The result text for the model, whether it is an error, and whether it was denied."""

    content: str
    is_error: bool
    denied: bool = False


Extra = Callable[[dict[str, Any]], Awaitable[str]]
# Runs after a successful write_file or edit_file on that file: a note for the result, or None.
AfterEdit = Callable[[Path], Awaitable[str | None]]
EDIT_TOOLS = ("write_file", "edit_file")


@dataclass
class Toolbox:
    """The tools one loop offers: their definitions, the approver, and the handlers of the
    optional tools (todo, explore, lookup) next to the built-in ones."""

    specs: list[ToolSpec]
    approver: Approver = field(default_factory=Approver)
    extra: dict[str, Extra] = field(default_factory=dict)
    code_map: Callable[[], str] | None = None
    after_edit: list[AfterEdit] = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        """The names of the offered tools."""
        return [spec.name for spec in self.specs]


async def dispatch(call: ToolCall, turn: AgentTurn, toolbox: Toolbox) -> ToolOutcome:
    """Run one tool call; every failure becomes an error result for the model."""
    try:
        if call.name not in toolbox.names:
            known = ", ".join(toolbox.names)
            return ToolOutcome(f"unknown tool '{call.name}'; the tools are: {known}", True)
        if call.name == "run_command":
            decision = toolbox.approver.check_command(str(call.arguments.get("command", "")))
            if not decision.allowed:
                message = decision.message(str(call.arguments.get("command")))
                return ToolOutcome(message, True, denied=True)
            output, failed = await run_command(turn, call.arguments)
            return ToolOutcome(output, failed)
        extra = toolbox.extra.get(call.name)
        if extra is not None:
            return ToolOutcome(clip(await extra(call.arguments)), False)
        handler = _FILE_TOOLS[call.name]
        content = clip(handler(Path(turn.workspace), call.arguments))
        if call.name in EDIT_TOOLS:
            edited = inside(Path(turn.workspace), call.arguments["path"])
            for hook in toolbox.after_edit:
                note = await hook(edited)
                if note:
                    content += f"\n{note}"
        return ToolOutcome(content, False)
    except ToolError as error:
        return ToolOutcome(f"error: {error}", True)
    except (OSError, ValueError, TypeError, KeyError, RecursionError) as error:
        return ToolOutcome(f"error: {type(error).__name__}: {error}", True)
