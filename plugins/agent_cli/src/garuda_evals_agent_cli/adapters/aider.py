"""aider: one ``--message`` turn, auto-yes, no git commits, no update checks or analytics."""

from __future__ import annotations

import shlex

from garuda_evals_agent_cli.adapters.base import Adapter, Invocation, Package

BASE_VARS = {
    "anthropic": ("ANTHROPIC_API_KEY", "ANTHROPIC_API_BASE"),
    "openai": ("OPENAI_API_KEY", "OPENAI_API_BASE"),
    "gemini": ("GEMINI_API_KEY", "GEMINI_API_BASE"),
}


class Aider(Adapter):
    """Paul Gauthier's aider (PyPI, in its own virtual environment) through litellm."""

    name = "aider"
    description = "aider (PyPI aider-chat), -m anthropic/MODEL, openai/MODEL or gemini/MODEL"
    package = Package("pypi", "aider-chat", "0.86.2", "venv/bin/aider")
    providers = ("anthropic", "openai", "gemini")
    reports_usage = False

    def command(self, program: str, call: Invocation) -> str:
        """``--message`` runs one turn and exits; edits are applied, nothing is committed."""
        argv = [
            program,
            "--model",
            call.model,
            "--yes-always",
            "--no-git",
            "--no-auto-commits",
            "--no-check-update",
            "--analytics-disable",
            "--no-show-model-warnings",
            "--no-pretty",
            "--no-stream",
            "--message",
        ]
        return f'{shlex.join(argv)} "$GARUDA_PROMPT" < /dev/null'

    def environment(self, provider: str, call: Invocation, key: str) -> dict[str, str]:
        """litellm's key and base variables for the provider; litellm's own model table
        (it would fetch a newer one from GitHub at start, which the sandbox does not reach)."""
        key_var, base_var = BASE_VARS[provider]
        return {
            key_var: key,
            base_var: call.base_url,
            "AIDER_CHECK_UPDATE": "false",
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        }

    def model_argument(self, provider: str, model: str) -> str:
        """litellm's provider/model."""
        return f"{provider}/{model}"
