"""One rule for every option an agent or a run backend cannot honour: refuse it before any
agent call."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from garuda_evals.agents.base import AgentFactory
from garuda_evals.errors import UsageError
from garuda_evals.models.settings import RunSettings
from garuda_evals.plugins.manager import CORE_DISTRIBUTION, PluginRegistry
from garuda_evals.records import Option


@dataclass(frozen=True)
class ScopedValue:
    """A given option value that only some agents honour."""

    flag: str
    value: Any
    agents: tuple[str, ...]
    distribution: str


CORE_SCOPED = (
    ("--agent-command", "agent_command"),
    ("--agent-env", "agent_env"),
    ("--agent-mount", "agent_mounts"),
)
COMMAND_AGENTS = ("command",)


def _given(value: Any, default: Any) -> bool:
    return value is not None and value != default and value not in ((), [], False)


def given_plugin_options(
    settings: RunSettings, registry: PluginRegistry
) -> Iterator[tuple[Option, Any, str]]:
    """Every plugin option the user gave: the option, its value, its owner's distribution."""
    for owner, registered in registry.options().items():
        values = settings.options.get(owner, {})
        for option in registered.record.options:
            value = values.get(option.name)
            if _given(value, option.default):
                yield option, value, registered.distribution


def scoped_values(settings: RunSettings, registry: PluginRegistry) -> Iterator[ScopedValue]:
    """Every option the user gave that names the agents it is for."""
    for flag, field in CORE_SCOPED:
        value = getattr(settings, field)
        if _given(value, None):
            yield ScopedValue(flag, value, COMMAND_AGENTS, CORE_DISTRIBUTION)
    for option, value, distribution in given_plugin_options(settings, registry):
        if option.agents is not None:
            yield ScopedValue(option.flag, value, option.agents, distribution)


def _shown(value: Any) -> str:
    return ",".join(map(str, value)) if isinstance(value, list | tuple) else str(value)


def refuse_backend_options(settings: RunSettings, registry: PluginRegistry) -> None:
    """Raise UsageError for a given option that the chosen ``--backend`` does not honour."""
    for option, value, distribution in given_plugin_options(settings, registry):
        if option.backends is None or settings.backend in option.backends:
            continue
        given = option.flag if option.is_flag else f"{option.flag} {_shown(value)}"
        raise UsageError(
            f"{given}: the {settings.backend} backend cannot honour it; {option.flag} is an "
            f"option of {distribution} for --backend {', '.join(option.backends)}: drop it or "
            "use that backend"
        )


def refuse_foreign_options(
    factory: AgentFactory, settings: RunSettings, registry: PluginRegistry
) -> None:
    """Raise UsageError naming the option, the agent and the plugin that owns the option."""
    for scoped in scoped_values(settings, registry):
        if factory.name in scoped.agents or scoped.flag in factory.accepts:
            continue
        why = "cannot honour it" if factory.uses_model else "calls no model and cannot honour it"
        raise UsageError(
            f"{scoped.flag} {_shown(scoped.value)}: the {factory.name} agent {why}; "
            f"{scoped.flag} is an option of {scoped.distribution} for the "
            f"{', '.join(scoped.agents)} agent: drop it or use that agent"
        )
