"""opencode: ``opencode run --format json`` with the provider's base URL in its config."""

from __future__ import annotations

import json
import shlex

from garuda_evals_agent_cli.adapters.base import Adapter, Invocation, OwnUsage, Package, json_lines

KEY_VARS = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}


class Opencode(Adapter):
    """sst's opencode (native binary from npm) on Anthropic or OpenAI models."""

    name = "opencode"
    description = "opencode (npm opencode-ai), -m anthropic/MODEL or openai/MODEL"
    package = Package("npm", "opencode-ai", "1.18.33", "node_modules/opencode-ai/bin/opencode.exe")
    providers = ("anthropic", "openai")

    def command(self, program: str, call: Invocation) -> str:
        """``run`` with JSON events; the model as opencode spells it, provider/model.

        A session without a title makes opencode ask its small model for one first: a model
        call on another model that does nothing for the task (and takes the scripted reply a
        test meant for the agent). ``--title`` names the session instead; ``--pure`` keeps
        the user's opencode plugins out of the measurement.
        """
        argv = [program, "run", "--format", "json", "--pure", "-m", call.model]
        title = '--title "garuda $GARUDA_TASK_ID"'
        return f'{shlex.join(argv)} {title} "$GARUDA_PROMPT" < /dev/null'

    def environment(self, provider: str, call: Invocation, key: str) -> dict[str, str]:
        """The placeholder key; updates and sharing off (also in the config)."""
        return {
            KEY_VARS[provider]: key,
            "OPENCODE_DISABLE_AUTOUPDATE": "true",
            "OPENCODE_DISABLE_SHARE": "true",
            "XDG_CONFIG_HOME": f"{call.home}/.config",
            "XDG_DATA_HOME": f"{call.home}/.local/share",
        }

    def home_files(self, provider: str, call: Invocation) -> dict[str, str]:
        """``opencode.json``: the provider's baseURL is the proxy (with ``/v1`` for Anthropic,
        as its SDK expects); edits and shell allowed."""
        base = f"{call.base_url}/v1" if provider == "anthropic" else call.base_url
        config = {
            "$schema": "https://opencode.ai/config.json",
            "autoupdate": False,
            "share": "disabled",
            "permission": {"edit": "allow", "bash": "allow", "webfetch": "deny"},
            "provider": {provider: {"options": {"baseURL": base}}},
        }
        return {".config/opencode/opencode.json": json.dumps(config, indent=2)}

    def model_argument(self, provider: str, model: str) -> str:
        """opencode names models provider/model itself."""
        return f"{provider}/{model}"

    def own_usage(self, output: str) -> OwnUsage | None:
        """The sum of the ``step_finish`` parts' tokens and cost."""
        found = False
        total = OwnUsage(cost_usd=0.0)
        for item in json_lines(output):
            part = item.get("part") if isinstance(item.get("part"), dict) else item
            if part.get("type") != "step-finish" and item.get("type") != "step_finish":
                continue
            tokens = part.get("tokens") or {}
            cache = tokens.get("cache") or {}
            found = True
            total = OwnUsage(
                input_tokens=total.input_tokens + int(tokens.get("input") or 0),
                cache_read_tokens=total.cache_read_tokens + int(cache.get("read") or 0),
                cache_write_tokens=total.cache_write_tokens + int(cache.get("write") or 0),
                output_tokens=total.output_tokens
                + int(tokens.get("output") or 0)
                + int(tokens.get("reasoning") or 0),
                cost_usd=(total.cost_usd or 0.0) + float(part.get("cost") or 0.0),
            )
        return total if found else None
