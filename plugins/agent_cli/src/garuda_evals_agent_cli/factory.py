"""One ``garuda_evals.agents`` entry point per CLI: checks, preflight, then the agent."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from garuda_evals.api import Agent, AgentFactory, GarudaError, RunSettings, UsageError
from garuda_evals_agent.agent_options import agent_options, check_max_cost
from garuda_evals_agent.factory import max_cost_described
from garuda_evals_agent_cli.adapters.base import Adapter

if TYPE_CHECKING:
    from garuda_evals_agent_cli.upstream import Upstream

MODEL_VAR = "GARUDA_MODEL"


class CliAgentFactory(AgentFactory):
    """An agent CLI: ``-m provider/model``, the installed pinned version, the proxy."""

    adapter_name: ClassVar[str]
    uses_model = True
    accepts = frozenset({"--model", "--max-steps", "--max-cost"})

    def adapter(self) -> Adapter:
        """This CLI's adapter."""
        from garuda_evals_agent_cli.adapters.registry import adapters

        return adapters()[self.adapter_name]

    def spec(self, settings: RunSettings) -> tuple[str, str]:
        """The provider and model from ``-m`` or GARUDA_MODEL."""
        text = settings.option("model") or os.environ.get(MODEL_VAR, "").strip()
        adapter = self.adapter()
        if not text:
            raise UsageError(
                f"the {adapter.name} agent needs -m provider/model "
                f"(for example -m {adapter.providers[0]}/MODEL) or {MODEL_VAR}"
            )
        return adapter.provider_of(str(text))

    def check_settings(self, settings: RunSettings) -> None:
        """The model, the key, the installed CLI, and the preflight call: before any task."""
        from garuda_evals_agent_cli.install import program_path
        from garuda_evals_agent_cli.upstream import upstream_for

        upstream_for(self.spec(settings)[0])
        self.reserve_rate(settings)
        adapter = self.adapter()
        if program_path(adapter) is None:
            raise GarudaError(
                f"{adapter.name} {adapter.package.version} is not installed: "
                f"run `garuda agents install {adapter.name}`"
            )

    def reserve_rate(self, settings: RunSettings) -> float:
        """With ``--max-cost``: the model's dearest token (what a call without a usage report
        counts per reserved token); UsageError when the model has no known price."""
        from garuda_evals_agent.spend_cap import cap_rate
        from garuda_evals_agent_cli.upstream import upstream_for

        max_cost = check_max_cost(settings)
        if max_cost is None:
            return 0.0
        provider, model = self.spec(settings)
        return cap_rate(max_cost, model, f"{provider}/{model}", upstream_for(provider).prices)

    def preflight(self, settings: RunSettings) -> None:
        """One cheap call to the metered API with the real key, before the first task."""
        from garuda_evals_agent.preflight import preflight
        from garuda_evals_agent_cli.upstream import upstream_for

        provider, _ = self.spec(settings)
        upstream = upstream_for(provider)
        preflight(provider, provider, upstream.base_url, upstream.key)

    def describe(self, settings: RunSettings) -> Mapping[str, str]:
        """The CLI, its pinned version, the model and the metered API (never a key)."""
        from garuda_evals_agent_cli.upstream import upstream_for

        adapter = self.adapter()
        provider, model = self.spec(settings)
        described = {
            "agent": self.name,
            "cli": adapter.package.name,
            "cliVersion": adapter.package.version,
            "model": f"{provider}/{model}",
            "provider": provider,
            "metering": "garuda proxy",
        }
        with contextlib.suppress(GarudaError):
            described["baseUrl"] = upstream_for(provider).base_url
        return {**described, **max_cost_described(settings)}

    def create(self, settings: RunSettings) -> Agent:
        """The agent for this run, with the run's proxy budget."""
        from garuda_evals_agent.budget import Budget
        from garuda_evals_agent_cli.agent import CliAgent
        from garuda_evals_agent_cli.install import program_path
        from garuda_evals_agent_cli.upstream import upstream_for

        adapter = self.adapter()
        provider, model = self.spec(settings)
        program = program_path(adapter)
        if program is None:
            raise GarudaError(f"run `garuda agents install {adapter.name}` first")
        max_steps = settings.option("max_steps")
        warm_prices(model, upstream_for(provider))
        return CliAgent(
            adapter,
            program,
            provider,
            model,
            upstream_for(provider),
            Budget(
                agent_options(settings).max_cost, reserve_usd_per_token=self.reserve_rate(settings)
            ),
            max_turns=int(max_steps) if max_steps else None,
        )


def warm_prices(model: str, upstream: Upstream) -> None:
    """Load the price table now, not inside the first metered call."""
    from garuda_evals_agent.messages import CallUsage
    from garuda_evals_agent.pricing import price_call

    price_call(CallUsage(input_tokens=1, output_tokens=1), model, upstream.prices)


class ClaudeCodeFactory(CliAgentFactory):
    """Entry point ``claude-code``."""

    name = "claude-code"
    adapter_name = "claude-code"
    description = "Claude Code (pinned, `garuda agents install claude-code`), -m anthropic/MODEL"


class CodexFactory(CliAgentFactory):
    """Entry point ``codex``."""

    name = "codex"
    adapter_name = "codex"
    description = "Codex CLI (pinned, `garuda agents install codex`), -m openai/MODEL"


class GeminiCliFactory(CliAgentFactory):
    """Entry point ``gemini-cli``."""

    name = "gemini-cli"
    adapter_name = "gemini-cli"
    description = "Gemini CLI (pinned, `garuda agents install gemini-cli`), -m gemini/MODEL"


class OpencodeFactory(CliAgentFactory):
    """Entry point ``opencode``."""

    name = "opencode"
    adapter_name = "opencode"
    description = "opencode (pinned, `garuda agents install opencode`), -m anthropic|openai/MODEL"


class AiderFactory(CliAgentFactory):
    """Entry point ``aider``."""

    name = "aider"
    adapter_name = "aider"
    description = "aider (pinned, `garuda agents install aider`), -m anthropic|openai|gemini/MODEL"
