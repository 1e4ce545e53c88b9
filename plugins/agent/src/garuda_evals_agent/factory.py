"""The ``garuda`` entry point of ``garuda_evals.agents``: checks flags, then makes the agent."""

from __future__ import annotations

import os
from collections.abc import Mapping

from garuda_evals.api import Agent, AgentFactory, RunLimits, RunSettings, UsageError
from garuda_evals_agent.agent_options import agent_options, check_max_cost
from garuda_evals_agent.providers.base import ClientOptions
from garuda_evals_agent.providers.registry import model_spec_text, resolve, resolve_spec

POLL_VAR = "GARUDA_BATCH_POLL_S"
BATCH_MAX_PARALLEL = 20
BATCH_TASK_TIMEOUT_S = 12 * 3600.0


def check_lsp(settings: RunSettings) -> None:
    """``--lsp on`` needs the OS sandbox and at least one installed language server."""
    from garuda_evals_agent.lsp.servers import installed_servers

    if agent_options(settings).lsp != "on":
        return
    if settings.executor == "host":
        raise UsageError(
            "--lsp on runs the language servers inside the OS sandbox: drop --executor host"
        )
    if not installed_servers():
        raise UsageError(
            "--lsp on needs a language server in garuda's tools folder; "
            "see `garuda lsp` and install them with: garuda lsp --install"
        )


def client_options(settings: RunSettings) -> ClientOptions:
    """Thinking kept unless ``--keep-thinking off``; batch with ``--batch on``."""
    options = agent_options(settings)
    return ClientOptions(
        keep_thinking=options.keep_thinking != "off",
        batch=options.batch == "on",
        batch_poll_s=float(os.environ.get(POLL_VAR, "5")),
    )


def check_format(settings: RunSettings) -> None:
    """``--format`` is refused for ``-s repo`` and needs garuda's Biome installed."""
    from garuda_evals_agent.managed import BIOME

    if agent_options(settings).format is None:
        return
    if "repo" in settings.suites:
        raise UsageError(
            "--format does not work with -s repo: it would format the whole project; drop --format"
        )
    if not BIOME.installed():
        raise UsageError(
            f"--format needs Biome {BIOME.version} in garuda's tools folder ({BIOME.folder}); "
            "install it with: garuda lsp --install"
        )


def reserve_rate(settings: RunSettings) -> float:
    """With ``--max-cost``: the dearest token of the run's models (the agent's and the
    subagents'), what a call without a usage report counts per reserved token; UsageError
    when one has no known price. Without ``--max-cost``: 0."""
    from garuda_evals_agent.spend_cap import cap_rate

    max_cost = check_max_cost(settings)
    if max_cost is None:
        return 0.0
    options = agent_options(settings)
    specs = [model_spec_text(settings)]
    if options.subagents == "on" and options.subagent_model:
        specs.append(options.subagent_model)
    rates = []
    for text in specs:
        spec, provider = resolve_spec(text)
        rates.append(cap_rate(max_cost, spec.model, str(spec), provider.price_source(spec.model)))
    return max(rates)


def max_cost_described(settings: RunSettings) -> dict[str, str]:
    """``maxCostUsd`` for report.json when ``--max-cost`` is given."""
    max_cost = agent_options(settings).max_cost
    return {} if max_cost is None else {"maxCostUsd": f"{max_cost:g}"}


def feature_flags(settings: RunSettings, model: str) -> dict[str, str]:
    """The A/B features' effective values, for report.json's ``agent`` record."""
    options = agent_options(settings)
    flags: dict[str, str] = {
        "todo": options.todo or "off",
        "subagents": options.subagents or "off",
        "index": options.index or "off",
        "lsp": options.lsp or "off",
        "format": options.format or "off",
    }
    if options.format is not None:
        from garuda_evals_agent.managed import BIOME

        flags["formatter"] = f"{BIOME.name} {BIOME.version}"
    if flags["lsp"] == "on":
        from garuda_evals_agent.lsp.servers import SERVERS

        flags["lspServers"] = "; ".join(f"{s.language}: {s.describe()}" for s in SERVERS)
    if flags["subagents"] == "on":
        flags["subagentModel"] = options.subagent_model or model
    return flags


class GarudaAgentFactory(AgentFactory):
    """The built-in coding agent on a model chosen with ``-m provider/model``."""

    name = "garuda"
    description = "the built-in coding agent on a model (-m provider/model or GARUDA_MODEL)"
    uses_model = True

    def check_settings(self, settings: RunSettings) -> None:
        """Flags, the model spec, the provider and its key: all before the first task."""
        check_lsp(settings)
        spec, provider = resolve(settings)
        options = agent_options(settings)
        check_format(settings)
        check_max_cost(settings)
        if options.subagent_model is not None:
            if options.subagents != "on":
                raise UsageError("--subagent-model needs --subagents on")
            sub_spec, sub_provider = resolve_spec(options.subagent_model)
            sub_provider.check(sub_spec.model, settings)
        if agent_options(settings).batch == "on" and not provider.supports_batch:
            raise UsageError(
                f"--batch on works with Anthropic models only (the Message Batches API); "
                f"'{spec}' is served by {provider.name}: drop --batch or use -m anthropic/..."
            )
        provider.check(spec.model, settings)
        reserve_rate(settings)

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
            **feature_flags(settings, str(spec)),
            **max_cost_described(settings),
        }

    def create(self, settings: RunSettings) -> Agent:
        """The agent for this run."""
        from garuda_evals_agent.budget import Budget
        from garuda_evals_agent.loop import GarudaAgent
        from garuda_evals_agent.retry import RetryPolicy

        spec, provider = resolve(settings)
        budget = Budget(
            agent_options(settings).max_cost, reserve_usd_per_token=reserve_rate(settings)
        )
        return GarudaAgent(
            spec, provider, settings, client_options(settings), RetryPolicy.from_env(), budget
        )
