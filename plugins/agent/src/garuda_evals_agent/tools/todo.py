"""The todo tool (``--todo on``): a short task list the model writes and reads back."""

from __future__ import annotations

from typing import Any

from garuda_evals_agent.messages import ToolSpec
from garuda_evals_agent.tools.paths import ToolError

STATUSES = ("pending", "in_progress", "done")
MAX_ITEMS = 50

TODO_TOOLS = [
    ToolSpec(
        "todo_write",
        "Replace your todo list (a short plan for this task). Each item has content and a "
        "status: pending, in_progress or done. Returns the list.",
        {
            "type": "object",
            "properties": {
                "items": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "content": {"type": "string"},
                            "status": {"type": "string", "enum": list(STATUSES)},
                        },
                        "required": ["content", "status"],
                    },
                }
            },
            "required": ["items"],
        },
    ),
    ToolSpec("todo_read", "Read your todo list.", {"type": "object", "properties": {}}),
]


class TodoList:
    """One turn's todo list."""

    def __init__(self) -> None:
        self.items: list[tuple[str, str]] = []

    def write(self, args: dict[str, Any]) -> str:
        """Replace the list with ``args['items']``; return it as the model will read it."""
        items = args.get("items")
        if not isinstance(items, list) or len(items) > MAX_ITEMS:
            raise ToolError(f"items must be a list of at most {MAX_ITEMS} objects")
        parsed: list[tuple[str, str]] = []
        for number, item in enumerate(items, 1):
            if not isinstance(item, dict) or not isinstance(item.get("content"), str):
                raise ToolError(f"item {number} needs a content string")
            status = item.get("status", "pending")
            if status not in STATUSES:
                raise ToolError(f"item {number}: status must be one of {', '.join(STATUSES)}")
            parsed.append((item["content"].strip(), status))
        self.items = parsed
        return self.read({})

    def read(self, args: dict[str, Any]) -> str:
        """The list, one item a line: ``[x] done``, ``[>] in progress``, ``[ ] pending``."""
        if not self.items:
            return "(the todo list is empty)"
        marks = {"done": "[x]", "in_progress": "[>]", "pending": "[ ]"}
        return "\n".join(f"{marks[status]} {content}" for content, status in self.items)
