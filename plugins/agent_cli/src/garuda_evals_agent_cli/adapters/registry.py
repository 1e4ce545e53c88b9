"""Every adapter by name."""

from __future__ import annotations

from garuda_evals_agent_cli.adapters.base import Adapter


def adapters() -> dict[str, Adapter]:
    """The adapters, by the agent name ``--agent`` takes."""
    from garuda_evals_agent_cli.adapters.aider import Aider
    from garuda_evals_agent_cli.adapters.claude_code import ClaudeCode
    from garuda_evals_agent_cli.adapters.codex import Codex
    from garuda_evals_agent_cli.adapters.gemini_cli import GeminiCli
    from garuda_evals_agent_cli.adapters.opencode import Opencode

    found: list[Adapter] = [ClaudeCode(), Codex(), GeminiCli(), Opencode(), Aider()]
    return {adapter.name: adapter for adapter in found}
