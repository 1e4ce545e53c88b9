"""Agents: one is chosen per run through the ``garuda_evals.agents`` namespace."""

from garuda_evals.agents.base import (
    Agent,
    AgentFactory,
    AgentOutcome,
    AgentTurn,
    EventSink,
    Progress,
)

__all__ = ["Agent", "AgentFactory", "AgentOutcome", "AgentTurn", "EventSink", "Progress"]
