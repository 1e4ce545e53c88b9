"""The model agent's options, typed: validated from the flags that ``options.py`` declares."""

from __future__ import annotations

from typing import Literal

from garuda_evals.api import Model, RunSettings, UsageError
from garuda_evals_agent.options import OWNER

OnOff = Literal["on", "off"]


class AgentOptions(Model):
    """The model agent's options. ``None``: the flag was not given (the agent's default)."""

    model: str | None = None
    max_steps: int | None = None
    max_cost: float | None = None
    index: Literal["off", "lookup", "all"] | None = None
    subagents: OnOff | None = None
    subagent_model: str | None = None
    todo: OnOff | None = None
    lsp: OnOff | None = None
    keep_thinking: OnOff | None = None
    format: OnOff | None = None
    batch: OnOff | None = None


def check_max_cost(settings: RunSettings) -> float | None:
    """``--max-cost``: a positive amount in USD, or None when not given."""
    max_cost = agent_options(settings).max_cost
    if max_cost is not None and max_cost <= 0:
        raise UsageError(f"--max-cost {max_cost:g}: needs a positive amount in USD")
    return max_cost


def agent_options(settings: RunSettings) -> AgentOptions:
    """This plugin's options of a run, typed."""
    return settings.options_for(OWNER, AgentOptions)
