"""Claude Code: ``claude -p`` with JSON output, permissions bypassed inside the sandbox."""

from __future__ import annotations

import shlex

from garuda_evals_agent_cli.adapters.base import Adapter, Invocation, OwnUsage, Package, json_lines


class ClaudeCode(Adapter):
    """Anthropic's Claude Code, its native binary called from its own folder."""

    name = "claude-code"
    description = "Claude Code (npm @anthropic-ai/claude-code), -m anthropic/MODEL"
    package = Package(
        "npm",
        "@anthropic-ai/claude-code",
        "2.1.332",
        "node_modules/@anthropic-ai/claude-code/bin/claude.exe",
    )
    providers = ("anthropic",)

    def command(self, program: str, call: Invocation) -> str:
        """``-p`` with JSON output; ``IS_SANDBOX=1`` lets root skip permission prompts."""
        argv = [
            program,
            "-p",
            "--output-format",
            "json",
            "--dangerously-skip-permissions",
            "--model",
            call.model,
        ]
        if call.max_turns is not None:
            argv += ["--max-turns", str(call.max_turns)]
        return f'{shlex.join(argv)} "$GARUDA_PROMPT" < /dev/null'

    def environment(self, provider: str, call: Invocation, key: str) -> dict[str, str]:
        """Base URL and placeholder key; updater, telemetry and background calls off."""
        return {
            "ANTHROPIC_BASE_URL": call.base_url,
            "ANTHROPIC_API_KEY": key,
            "IS_SANDBOX": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        }

    def own_usage(self, output: str) -> OwnUsage | None:
        """The ``result`` object: ``usage``, ``total_cost_usd`` and its ``subtype``."""
        results = [item for item in json_lines(output) if item.get("type") == "result"]
        if not results or not isinstance(results[-1].get("usage"), dict):
            return None
        result = results[-1]
        usage = result["usage"]
        cost = result.get("total_cost_usd")
        return OwnUsage(
            input_tokens=int(usage.get("input_tokens") or 0),
            cache_read_tokens=int(usage.get("cache_read_input_tokens") or 0),
            cache_write_tokens=int(usage.get("cache_creation_input_tokens") or 0),
            output_tokens=int(usage.get("output_tokens") or 0),
            cost_usd=float(cost) if isinstance(cost, int | float) else None,
            stop=str(result.get("subtype") or "") or None,
        )
