"""Codex CLI: ``codex exec --json`` against a custom provider that speaks the Responses API."""

from __future__ import annotations

import shlex

from garuda_evals_agent_cli.adapters.base import Adapter, Invocation, OwnUsage, Package, json_lines

PROVIDER_ID = "garuda"


class Codex(Adapter):
    """OpenAI's Codex CLI, its native binary called from its own folder."""

    name = "codex"
    description = "Codex CLI (npm @openai/codex), -m openai/MODEL"
    package = Package(
        "npm",
        "@openai/codex",
        "0.171.0",
        "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
    )
    providers = ("openai",)

    def command(self, program: str, call: Invocation) -> str:
        """``exec --json`` with approvals and Codex's own sandbox off (garuda's is around it)."""
        argv = [
            program,
            "exec",
            "--json",
            "--skip-git-repo-check",
            "--dangerously-bypass-approvals-and-sandbox",
            "-m",
            call.model,
        ]
        return f'{shlex.join(argv)} "$GARUDA_PROMPT" < /dev/null'

    def environment(self, provider: str, call: Invocation, key: str) -> dict[str, str]:
        """CODEX_HOME in the private home; the key variable the provider entry names."""
        return {"CODEX_HOME": f"{call.home}/.codex", "OPENAI_API_KEY": key}

    def home_files(self, provider: str, call: Invocation) -> dict[str, str]:
        """``config.toml``: the garuda provider (Responses API), updates and analytics off."""
        config = f"""model_provider = "{PROVIDER_ID}"
check_for_update_on_startup = false

[analytics]
enabled = false

[model_providers.{PROVIDER_ID}]
name = "{PROVIDER_ID}"
base_url = "{call.base_url}"
env_key = "OPENAI_API_KEY"
wire_api = "responses"
"""
        return {".codex/config.toml": config}

    def own_usage(self, output: str) -> OwnUsage | None:
        """The sum of every ``turn.completed`` usage (input includes cached input)."""
        found = False
        total = OwnUsage()
        for item in json_lines(output):
            usage = item.get("usage")
            if item.get("type") != "turn.completed" or not isinstance(usage, dict):
                continue
            found = True
            cached = int(usage.get("cached_input_tokens") or 0)
            total = OwnUsage(
                input_tokens=total.input_tokens + int(usage.get("input_tokens") or 0) - cached,
                cache_read_tokens=total.cache_read_tokens + cached,
                cache_write_tokens=total.cache_write_tokens
                + int(usage.get("cache_write_input_tokens") or 0),
                output_tokens=total.output_tokens + int(usage.get("output_tokens") or 0),
            )
        return total if found else None
