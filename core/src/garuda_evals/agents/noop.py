"""The noop agent: changes nothing, so every task's check must fail."""

from __future__ import annotations

from garuda_evals.agents.base import Agent, AgentFactory, AgentOutcome, AgentTurn
from garuda_evals.models.settings import RunSettings
from garuda_evals.models.usage import Usage
from garuda_evals.transcript import Transcript


class NoopAgent(Agent):
    """Does nothing."""

    async def run(self, turn: AgentTurn) -> AgentOutcome:
        """Leave the workspace as shipped."""
        turn.progress.steps, turn.progress.usage = 0, Usage.known_zero()
        with Transcript(turn.transcript) as transcript:
            transcript.write("noop", {})
        return AgentOutcome(steps=0, usage=Usage.known_zero(), stop_reason="done")


class NoopAgentFactory(AgentFactory):
    """Entry point ``noop``."""

    name = "noop"
    description = "changes nothing (proves the checks fail as shipped)"

    def create(self, settings: RunSettings) -> Agent:
        """The noop agent."""
        return NoopAgent()
