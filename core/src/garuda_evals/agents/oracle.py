"""The oracle agent: applies the task's reference solution. Its usage is known zero."""

from __future__ import annotations

from pathlib import Path

from garuda_evals.agents.base import Agent, AgentFactory, AgentOutcome, AgentTurn
from garuda_evals.errors import GarudaError
from garuda_evals.guarded import delete, write_text
from garuda_evals.models.settings import RunSettings
from garuda_evals.models.task import Solution
from garuda_evals.models.usage import Usage
from garuda_evals.transcript import Transcript


def apply_solution(workspace: Path, solution: Solution) -> list[str]:
    """Delete the solution's deletions and write its files; return the paths touched.

    Every write and deletion goes through ``garuda_evals.guarded``: nothing lands outside
    ``workspace``, links at a target are replaced, and a linked parent folder is an error.
    """
    touched: list[str] = []
    for relative in solution.delete:
        delete(workspace, relative)
        touched.append(relative)
    for relative, content in solution.files.items():
        write_text(workspace, relative, content)
        touched.append(relative)
    return touched


class OracleAgent(Agent):
    """Writes the reference solution into the workspace."""

    async def run(self, turn: AgentTurn) -> AgentOutcome:
        """Apply ``turn.task.solution``; a task without one is an error run."""
        turn.progress.steps, turn.progress.usage = 0, Usage.known_zero()
        solution = turn.task.solution
        if solution is None:
            raise GarudaError(f"task {turn.task.id} has no reference solution")
        with Transcript(turn.transcript) as transcript:
            touched = apply_solution(turn.workspace, solution)
            transcript.write("solution", {"paths": touched})
        files = "1 file" if len(touched) == 1 else f"{len(touched)} files"
        turn.events("tool", f"applied reference solution ({files})")
        return AgentOutcome(steps=0, usage=Usage.known_zero(), stop_reason="done")


class OracleAgentFactory(AgentFactory):
    """Entry point ``oracle``."""

    name = "oracle"
    description = "applies each task's reference solution (proves the checks pass)"

    def create(self, settings: RunSettings) -> Agent:
        """The oracle agent."""
        return OracleAgent()
