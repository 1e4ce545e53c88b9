"""The model agent's options, typed: validated from the flags that ``options.py`` declares."""

from __future__ import annotations

from typing import Literal

from garuda_evals.api import Model, RunSettings
from garuda_evals_agent.options import OWNER

OnOff = Literal["on", "off"]


class AgentOptions(Model):
    """The model agent's options. ``None``: the flag was not given (the agent's default)."""

    model: str | None = None
    max_steps: int | None = None
    index: Literal["off", "lookup", "all"] | None = None
    subagents: OnOff | None = None
    subagent_model: str | None = None
    todo: OnOff | None = None
    lsp: OnOff | None = None
    keep_thinking: OnOff | None = None
    format: OnOff | None = None
    batch: OnOff | None = None


def agent_options(settings: RunSettings) -> AgentOptions:
    """This plugin's options of a run, typed."""
    return settings.options_for(OWNER, AgentOptions)
