"""The run_command tool: one shell command through the run's executor."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from garuda_evals.api import AgentTurn
from garuda_evals_agent.tools.output import clip
from garuda_evals_agent.tools.paths import ToolError

DEFAULT_COMMAND_TIMEOUT_S = 120.0
MAX_COMMAND_TIMEOUT_S = 600.0


async def run_command(turn: AgentTurn, args: dict[str, Any]) -> tuple[str, bool]:
    """Run ``command`` in the workspace; return the output and whether it failed."""
    command = args.get("command")
    if not isinstance(command, str) or not command.strip():
        raise ToolError("command must be a non-empty string")
    limit = _limit(args.get("timeout_s"))
    result = await turn.executor.run(
        command, cwd=Path(turn.workspace), env=dict(turn.env), timeout_s=limit
    )
    if result.timed_out:
        head = f"timed out after {limit:.0f} s (the command was killed)"
    else:
        head = f"exit code {result.exit_code}"
    truncated = " (output truncated)" if result.truncated else ""
    body = clip(result.output) if result.output else "(no output)"
    return f"{head}{truncated}\n{body}", result.timed_out or result.exit_code != 0


def _limit(value: Any) -> float:
    try:
        asked = float(value) if value is not None else DEFAULT_COMMAND_TIMEOUT_S
    except (TypeError, ValueError):
        asked = DEFAULT_COMMAND_TIMEOUT_S
    return max(1.0, min(asked, MAX_COMMAND_TIMEOUT_S))
