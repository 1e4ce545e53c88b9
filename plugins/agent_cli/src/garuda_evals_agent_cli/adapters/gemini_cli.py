"""Gemini CLI: ``gemini -p`` with JSON output and ``--yolo`` inside the sandbox."""

from __future__ import annotations

import json
import shlex

from garuda_evals_agent_cli.adapters.base import Adapter, Invocation, OwnUsage, Package, json_lines

SETTINGS = {
    "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "security": {"auth": {"selectedType": "gemini-api-key"}},
}


class GeminiCli(Adapter):
    """Google's Gemini CLI (a Node program) on the Gemini API."""

    name = "gemini-cli"
    description = "Gemini CLI (npm @google/gemini-cli), -m gemini/MODEL"
    package = Package(
        "npm", "@google/gemini-cli", "0.61.0", "node_modules/@google/gemini-cli/bundle/gemini.js"
    )
    providers = ("gemini",)

    def command(self, program: str, call: Invocation) -> str:
        """``-p`` (non-interactive), ``--yolo`` (no approvals), JSON output."""
        argv = ["node", program, "--yolo", "--output-format", "json", "-m", call.model, "-p"]
        return f'{shlex.join(argv)} "$GARUDA_PROMPT" < /dev/null'

    def environment(self, provider: str, call: Invocation, key: str) -> dict[str, str]:
        """The Gemini API's base URL and the placeholder key; no sandbox of its own."""
        return {
            "GEMINI_API_KEY": key,
            "GOOGLE_GEMINI_BASE_URL": call.base_url,
            "GEMINI_SANDBOX": "false",
            "GEMINI_CLI_NO_RELAUNCH": "true",
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
        }

    def home_files(self, provider: str, call: Invocation) -> dict[str, str]:
        """``~/.gemini/settings.json``: updates, statistics and telemetry off; API-key auth."""
        return {".gemini/settings.json": json.dumps(SETTINGS, indent=2)}

    def own_usage(self, output: str) -> OwnUsage | None:
        """``stats.models.*.tokens`` of the JSON result (prompt includes cached tokens)."""
        results = [item for item in json_lines(output) if isinstance(item.get("stats"), dict)]
        if not results:
            results = _whole(output)
        if not results:
            return None
        models = results[-1]["stats"].get("models") or {}
        total = OwnUsage()
        for entry in models.values():
            tokens = entry.get("tokens") or {}
            cached = int(tokens.get("cached") or 0)
            total = OwnUsage(
                input_tokens=total.input_tokens + int(tokens.get("prompt") or 0) - cached,
                cache_read_tokens=total.cache_read_tokens + cached,
                output_tokens=total.output_tokens
                + int(tokens.get("candidates") or 0)
                + int(tokens.get("thoughts") or 0),
            )
        return total


def _whole(output: str) -> list[dict]:  # type: ignore[type-arg]
    """The JSON result printed over several lines (the whole output, or from the first ``{``)."""
    start = output.find("{")
    if start < 0:
        return []
    try:
        item = json.loads(output[start:])
    except json.JSONDecodeError:
        return []
    return [item] if isinstance(item, dict) and isinstance(item.get("stats"), dict) else []
