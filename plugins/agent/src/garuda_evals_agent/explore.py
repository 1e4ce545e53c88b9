"""The explore subagent (``--subagents on``): a read-only sub-loop that answers one question.

It runs on the subagent model (``--subagent-model``, default the main model) with the read,
list and search tools only (and the symbol look-up with ``--index``), its own step limit, and
its own part of the transcript (lines marked ``"subagent": "explore"``). Its usage counts in
the turn's usage and under its model; its tool calls count as ``explore.<tool>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import anyio

from garuda_evals.api import AgentTurn, RunSettings, Transcript
from garuda_evals_agent.calls import TurnState, call_model
from garuda_evals_agent.messages import (
    Message,
    ModelRequest,
    Part,
    TextPart,
    ToolResult,
    ToolSpec,
)
from garuda_evals_agent.providers.base import ClientOptions, ModelProvider
from garuda_evals_agent.providers.registry import ModelSpec
from garuda_evals_agent.recovery import append_user, keep_whole
from garuda_evals_agent.retry import RetryPolicy
from garuda_evals_agent.tools.paths import ToolError
from garuda_evals_agent.tools.registry import Toolbox, dispatch
from garuda_evals_agent.transcribe import TurnLog

EXPLORE_MAX_STEPS = 20
PREFIX = "explore."

EXPLORE_TOOL = ToolSpec(
    "explore",
    "Hand a read-only question about the code (where is X, how does Y work) to an explore "
    "subagent that reads and searches the workspace and answers with a short summary. It "
    "cannot edit files or run commands.",
    {
        "type": "object",
        "properties": {"question": {"type": "string"}},
        "required": ["question"],
    },
)

EXPLORE_SYSTEM = """You are an explore subagent in a project folder: {workspace}
Answer the question you are given by reading, listing and searching files (read-only; you
cannot edit or run anything). Be quick. When you know the answer, reply with a short summary
that names the files and line numbers that matter, and no tool call."""


@dataclass
class Explorer:
    """Runs explore questions for one turn."""

    spec: ModelSpec
    provider: ModelProvider
    settings: RunSettings
    options: ClientOptions
    policy: RetryPolicy
    turn: AgentTurn
    state: TurnState
    transcript: Transcript
    tools: Toolbox

    async def ask(self, args: dict[str, Any]) -> str:
        """The subagent's answer to ``args['question']``."""
        question = args.get("question")
        if not isinstance(question, str) or not question.strip():
            raise ToolError("question must be a non-empty string")
        client = self.provider.open(self.spec.model, self.settings, self.options)
        state = self.state.child(str(self.spec))
        log = TurnLog(self.transcript, subagent="explore")
        system = EXPLORE_SYSTEM.format(workspace=self.turn.workspace)
        history = [Message("user", [TextPart(question)])]
        try:
            while state.steps < EXPLORE_MAX_STEPS:
                state.steps += 1
                request = ModelRequest(
                    system, history, self.tools.specs, client.max_output_tokens, state.steps
                )
                response = await call_model(self.turn, client, request, state, log, self.policy)
                message = response.message
                if response.stop_reason == "max_tokens":
                    message, _ = keep_whole(message)
                if message.parts:
                    history.append(message)
                calls = message.tool_calls()
                if not calls:
                    return _text(message) or "(the explore subagent gave no answer)"
                results: list[Part] = []
                for call in calls:
                    state.count_call(PREFIX + call.name)
                    log.tool_call(call)
                    outcome = await dispatch(call, self.turn, self.tools)
                    self.turn.events("tool", "explore: " + log.tool_line(call, outcome))
                    log.tool_result(call, outcome)
                    results.append(ToolResult(call.id, outcome.content, outcome.is_error))
                append_user(history, Message("user", results))
        finally:
            with anyio.CancelScope(shield=True):
                await client.aclose()
        return (
            f"the explore subagent reached its step limit ({EXPLORE_MAX_STEPS} model calls) "
            "without an answer; ask a narrower question or look yourself"
        )


def _text(message: Message) -> str:
    return "\n".join(part.text for part in message.parts if isinstance(part, TextPart)).strip()
