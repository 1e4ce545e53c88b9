"""Hooks: the ``garuda agents`` command (``--max-cost`` is the model agent plugin's option)."""

from __future__ import annotations

from collections.abc import Iterator

from garuda_evals.api import CommandRecord, hookimpl


def _load():  # type: ignore[no-untyped-def]
    from garuda_evals_agent_cli.command import agents

    return agents


@hookimpl
def garuda_commands() -> Iterator[CommandRecord]:
    """``garuda agents``: list the agent CLIs; ``garuda agents install NAME``."""
    yield CommandRecord(
        name="agents", description="agent CLIs: list them, install one (pinned)", load=_load
    )
