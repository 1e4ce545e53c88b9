"""This plugin's options, typed."""

from __future__ import annotations

from garuda_evals.api import Model, RunSettings
from garuda_evals_agent_cli.options import OWNER


class CliOptions(Model):
    """``None``: the flag was not given."""

    max_cost: float | None = None


def cli_options(settings: RunSettings) -> CliOptions:
    """This plugin's options of a run, typed."""
    return settings.options_for(OWNER, CliOptions)
