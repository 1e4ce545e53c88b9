"""The ``garuda`` entry point of ``garuda_evals.agents``: checks flags, then makes the agent."""

from __future__ import annotations

import os
from collections.abc import Mapping

from garuda_evals.agents.base import Agent, AgentFactory
from garuda_evals.errors import UsageError
from garuda_evals.models.settings import RunSettings
from garuda_evals_agent.providers.base import ClientOptions
from garuda_evals_agent.providers.registry import resolve

POLL_VAR = "GARUDA_BATCH_POLL_S"

NOT_YET = "is not implemented by the garuda agent yet"


def refuse_unimplemented(settings: RunSettings) -> None:
    """Refuse the flags whose features have their own issue, with a clear message."""
    refused = {
        "--subagents": "on" if settings.subagents == "on" else None,
        "--subagent-model": settings.subagent_model,
        "--todo": "on" if settings.todo == "on" else None,
        "--lsp": "on" if settings.lsp == "on" else None,
        "--format": "on" if settings.format == "on" else None,
        "--index": settings.index if settings.index in ("lookup", "all") else None,
    }
    for flag, value in refused.items():
        if value is not None:
            raise UsageError(f"{flag} {value} {NOT_YET}; leave it off (the default)")


def client_options(settings: RunSettings) -> ClientOptions:
    """Thinking kept unless ``--keep-thinking off``; batch with ``--batch on``."""
    return ClientOptions(
        keep_thinking=settings.keep_thinking != "off",
        batch=settings.batch == "on",
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
        if settings.batch == "on" and not provider.supports_batch:
            raise UsageError(
                f"--batch on works with Anthropic models only (the Message Batches API); "
                f"'{spec}' is served by {provider.name}: drop --batch or use -m anthropic/..."
            )
        provider.check(spec.model, settings)

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
