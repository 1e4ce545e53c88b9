"""The ``garuda`` entry point of ``garuda_evals.agents``: checks flags, then makes the agent."""

from __future__ import annotations

import os
from collections.abc import Mapping

from garuda_evals.api import Agent, AgentFactory, RunLimits, RunSettings, UsageError
from garuda_evals_agent.agent_options import agent_options
from garuda_evals_agent.providers.base import ClientOptions
from garuda_evals_agent.providers.registry import resolve

POLL_VAR = "GARUDA_BATCH_POLL_S"
BATCH_MAX_PARALLEL = 20
BATCH_TASK_TIMEOUT_S = 12 * 3600.0

NOT_YET = "is not implemented by the garuda agent yet"


def refuse_unimplemented(settings: RunSettings) -> None:
    """Refuse the flags whose features have their own issue, with a clear message."""
    options = agent_options(settings)
    refused = {
        "--subagents": "on" if options.subagents == "on" else None,
        "--subagent-model": options.subagent_model,
        "--todo": "on" if options.todo == "on" else None,
        "--lsp": "on" if options.lsp == "on" else None,
        "--format": "on" if options.format == "on" else None,
        "--index": options.index if options.index in ("lookup", "all") else None,
    }
    for flag, value in refused.items():
        if value is not None:
            raise UsageError(f"{flag} {value} {NOT_YET}; leave it off (the default)")


def client_options(settings: RunSettings) -> ClientOptions:
    """Thinking kept unless ``--keep-thinking off``; batch with ``--batch on``."""
    options = agent_options(settings)
    return ClientOptions(
        keep_thinking=options.keep_thinking != "off",
        batch=options.batch == "on",
        batch_poll_s=float(os.environ.get(POLL_VAR, "5")),
    )


class GarudaAgentFactory(AgentFactory):
    """The built-in coding agent on a model chosen with ``-m provider/model``."""

    name = "garuda"
    description = "the built-in coding agent on a model (-m provider/model or GARUDA_MODEL)"
    uses_model = True

    def check_settings(self, settings: RunSettings) -> None:
        """Flags, the model spec, the provider and its key: all before the first task."""
        refuse_unimplemented(settings)
        spec, provider = resolve(settings)
        if agent_options(settings).batch == "on" and not provider.supports_batch:
            raise UsageError(
                f"--batch on works with Anthropic models only (the Message Batches API); "
                f"'{spec}' is served by {provider.name}: drop --batch or use -m anthropic/..."
            )
        provider.check(spec.model, settings)

    def preflight(self, settings: RunSettings) -> None:
        """The provider's model list answers with the key, before the first task."""
        from garuda_evals_agent.preflight import preflight

        _, provider = resolve(settings)
        endpoint = provider.endpoint()
        if endpoint is not None:
            preflight(provider.name, *endpoint)

    def limits(self, settings: RunSettings) -> RunLimits | None:
        """With ``--batch on``: up to 20 tasks at once and 12 hours each (batches are slow)."""
        if agent_options(settings).batch != "on":
            return None
        return RunLimits(
            parallel=BATCH_MAX_PARALLEL, task_timeout_s=BATCH_TASK_TIMEOUT_S, batch=True
        )

    def describe(self, settings: RunSettings) -> Mapping[str, str]:
        """The model, its provider, and the settings that change the agent's behaviour."""
        spec, provider = resolve(settings)
        options = client_options(settings)
        return {
            "agent": self.name,
            "model": str(spec),
            **provider.describe(spec.model),
            "keepThinking": "on" if options.keep_thinking else "off",
            "batch": "on" if options.batch else "off",
        }

    def create(self, settings: RunSettings) -> Agent:
        """The agent for this run."""
        from garuda_evals_agent.loop import GarudaAgent
        from garuda_evals_agent.retry import RetryPolicy

        spec, provider = resolve(settings)
        return GarudaAgent(
            spec, provider, settings, client_options(settings), RetryPolicy.from_env()
        )
