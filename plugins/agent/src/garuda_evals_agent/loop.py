"""The agent loop: call the model, run its tools, until it stops or a limit is reached."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio

from garuda_evals.api import (
    BUDGET_STOP,
    Agent,
    AgentOutcome,
    AgentTurn,
    RunSettings,
    Transcript,
    Usage,
)
from garuda_evals_agent.agent_options import agent_options
from garuda_evals_agent.budget import Budget, TurnSpend
from garuda_evals_agent.calls import TurnState, call_model
from garuda_evals_agent.messages import Message, ModelRequest, TextPart, ToolResult
from garuda_evals_agent.prompt import system_prompt
from garuda_evals_agent.providers.base import (
    ClientOptions,
    ModelCallError,
    ModelClient,
    ModelProvider,
)
from garuda_evals_agent.providers.registry import ModelSpec
from garuda_evals_agent.recovery import MAX_CONSECUTIVE_CUTOFFS, append_user, keep_whole, nudge
from garuda_evals_agent.retry import RetryPolicy
from garuda_evals_agent.tools.registry import READ_ONLY, TOOLS, Toolbox, dispatch
from garuda_evals_agent.tools.todo import TODO_TOOLS, TodoList
from garuda_evals_agent.transcribe import TurnLog

DEFAULT_MAX_STEPS = 100
REFUSED_CHARS = 300


def _refused_after_an_answer(error: BaseException, state: TurnState) -> bool:
    """The API rejected a request of a turn in which the model had already answered."""
    return isinstance(error, ModelCallError) and error.refused and bool(state.meter.usage.requests)


class AgentRunError(RuntimeError):
    """The turn failed (for example retries exhausted): an error run. Carries what was used."""

    def __init__(self, message: str, *, steps: int, usage: Usage) -> None:
        super().__init__(message)
        self.steps = steps
        self.usage = usage
        self.stop_reason = "error"


class GarudaAgent(Agent):
    """The built-in coding agent. Keeps no state between turns; one client per turn."""

    def __init__(
        self,
        spec: ModelSpec,
        provider: ModelProvider,
        settings: RunSettings,
        options: ClientOptions,
        policy: RetryPolicy,
        budget: Budget | None = None,
    ) -> None:
        self.spec = spec
        self.provider = provider
        self.settings = settings
        self.options = options
        self.policy = policy
        self.budget = budget or Budget()

    def budget_spent(self) -> str | None:
        """Why no further task of the run should start: ``--max-cost`` is reached."""
        return self.budget.reason()

    async def run(self, turn: AgentTurn) -> AgentOutcome:
        """Work on the task until the model stops calling tools or a limit is reached."""
        client = self.provider.open(self.spec.model, self.settings, self.options)
        state = TurnState(model=str(self.spec))
        state.report(turn)  # no model call yet: a known zero
        spend = TurnSpend(self.budget)
        with Transcript(turn.transcript) as transcript:
            log = TurnLog(transcript)
            try:
                toolbox = await self._toolbox(turn, state, transcript)
                state.tool_calls.update(dict.fromkeys(toolbox.names, 0))
                stop = await self._loop(turn, client, state, log, toolbox, spend)
            except BaseException as error:
                if not _refused_after_an_answer(error, state):
                    cancelled = isinstance(error, anyio.get_cancelled_exc_class())
                    usage = state.meter.usage
                    log.end("cancelled" if cancelled else "error", state.steps, usage, error=error)
                    if isinstance(error, Exception):
                        raise AgentRunError(str(error), steps=state.steps, usage=usage) from error
                    raise
                # The agent's own conversation was refused, as a step limit ends it: judged,
                # never an error run that would leave the rates.
                stop = f"model refused: {str(error)[:REFUSED_CHARS]}"
            finally:
                spend.update(
                    self.budget.counted(state.meter.usage), state.meter.usage.cost_incomplete
                )
                with anyio.CancelScope(shield=True):
                    await client.aclose()
            log.end(stop, state.steps, state.meter.usage)
        return AgentOutcome(
            state.steps,
            state.meter.usage,
            stop,
            state.notices,
            tool_calls=dict(state.tool_calls),
            usage_by_model=dict(state.meter.by_model),
        )

    async def _toolbox(self, turn: AgentTurn, state: TurnState, transcript: Transcript) -> Toolbox:
        """The built-in tools, plus the ones the A/B flags turn on."""
        options = agent_options(self.settings)
        toolbox = Toolbox(list(TOOLS))
        read_only = Toolbox([tool for tool in TOOLS if tool.name in READ_ONLY])
        if options.index in ("lookup", "all"):
            from garuda_evals_agent.index.code_index import LOOKUP_TOOL, CodeIndex

            index = CodeIndex(Path(turn.workspace))
            toolbox.code_map = index.code_map if options.index == "all" else None
            for box in (toolbox, read_only):
                box.specs.append(LOOKUP_TOOL)
                box.extra["lookup_symbol"] = index.lookup
        if options.todo == "on":
            todo = TodoList()
            toolbox.specs += TODO_TOOLS
            toolbox.extra["todo_write"] = _sync(todo.write)
            toolbox.extra["todo_read"] = _sync(todo.read)
        if options.subagents == "on":
            from garuda_evals_agent.explore import EXPLORE_TOOL, Explorer
            from garuda_evals_agent.providers.registry import resolve_spec

            spec, provider = (
                resolve_spec(options.subagent_model)
                if options.subagent_model
                else (self.spec, self.provider)
            )
            explorer = Explorer(
                spec, provider, self.settings, self.options, self.policy, turn, state,
                transcript, read_only,
            )  # fmt: skip
            toolbox.specs.append(EXPLORE_TOOL)
            toolbox.extra["explore"] = explorer.ask
        if options.format is not None:
            await self._formatter(turn, toolbox, options.format == "on")
        if options.lsp == "on":
            self._lsp(turn, toolbox)
        return toolbox

    def _lsp(self, turn: AgentTurn, toolbox: Toolbox) -> None:
        """``--lsp on``: each edit's result gets the file's diagnostics, from inside the sandbox."""
        from garuda_evals_agent.lsp.servers import SERVERS, diagnose

        if turn.executor.info().kind != "os":
            raise RuntimeError("--lsp on runs the language servers in the OS sandbox only")
        servers = "; ".join(f"{s.language}: {s.describe()}" for s in SERVERS)
        turn.events("notice", f"--lsp: {servers}")

        async def after_edit(path: Path) -> str | None:
            return await diagnose(turn, path)

        toolbox.after_edit.append(after_edit)

    def read_only_paths(self) -> tuple[Path, ...]:
        """With ``--lsp on``: garuda's tools folder, where the servers and the probe live."""
        from garuda_evals_agent.managed import tools_dir

        if agent_options(self.settings).lsp != "on":
            return ()
        return (tools_dir(),)

    async def _formatter(self, turn: AgentTurn, toolbox: Toolbox, after_edits: bool) -> None:
        """``--format``: the project formatted once now; with ``on``, each edited file too."""
        from garuda_evals_agent.formatting import Formatter, applies

        workspace = Path(turn.workspace)
        if not applies(workspace):
            turn.events(
                "notice", "--format: not a JavaScript/TypeScript workspace; nothing formatted"
            )
            return
        formatter = Formatter(workspace, turn.task.protected)
        count = await anyio.to_thread.run_sync(formatter.format_project)
        turn.events("notice", f"--format: {formatter.describe()} formatted {count} file(s) first")
        if after_edits:

            async def after_edit(path: Path) -> str | None:
                return await anyio.to_thread.run_sync(formatter.format_file, path)

            toolbox.after_edit.append(after_edit)

    async def _loop(
        self,
        turn: AgentTurn,
        client: ModelClient,
        state: TurnState,
        log: TurnLog,
        toolbox: Toolbox,
        spend: TurnSpend,
    ) -> str:
        code_map = toolbox.code_map() if toolbox.code_map is not None else None
        system = system_prompt(turn.workspace, code_map)
        max_steps = agent_options(self.settings).max_steps or DEFAULT_MAX_STEPS
        tools = toolbox.specs
        log.start(str(self.spec), system, tools, max_steps, self.options, client.max_output_tokens)
        history = [Message("user", [TextPart(turn.prompt)])]
        while True:
            # Every call of the turn (a subagent's too) is in the shared meter.
            spend.update(self.budget.counted(state.meter.usage), state.meter.usage.cost_incomplete)
            spent = self.budget.reason()
            if spent is not None:
                self._notice(turn, state, log, f"{spent}: no further model call")
                return BUDGET_STOP
            if state.steps >= max_steps:
                self._notice(turn, state, log, f"step limit reached ({max_steps} model calls)")
                return "max_steps"
            state.steps += 1
            state.report(turn)
            request = ModelRequest(system, history, tools, client.max_output_tokens, state.steps)
            response = await call_model(turn, client, request, state, log, self.policy)
            message, after = response.message, []
            if response.stop_reason == "max_tokens":
                state.cutoffs += 1
                message, dropped = keep_whole(message)
                going_on = state.cutoffs <= MAX_CONSECUTIVE_CUTOFFS
                self._notice(
                    turn,
                    state,
                    log,
                    f"output limit: step {state.steps} stopped at max_tokens "
                    f"({request.max_tokens}); dropped {dropped} unfinished tool call(s)"
                    + (", continuing" if going_on else ""),
                )
                if not going_on:
                    return "max_tokens"
                after = [TextPart(nudge(request.max_tokens))]
            else:
                state.cutoffs = 0
            if message.parts:
                history.append(message)
            calls = message.tool_calls()
            if not calls and not after:
                if response.stop_reason == "end":
                    return "done"
                return response.provider_stop_reason or response.stop_reason
            results: list[ToolResult | TextPart] = []
            for call in calls:
                state.count_call(call.name)
                state.report(turn)
                log.tool_call(call)
                outcome = await dispatch(call, turn, toolbox)
                turn.events("tool", log.tool_line(call, outcome))
                log.tool_result(call, outcome)
                results.append(ToolResult(call.id, outcome.content, outcome.is_error))
            append_user(history, Message("user", [*results, *after]))

    def _notice(self, turn: AgentTurn, state: TurnState, log: TurnLog, text: str) -> None:
        state.notices.append(text)
        log.notice(text)
        turn.events("notice", text)


def _sync(handler: Callable[[dict[str, Any]], str]) -> Callable[[dict[str, Any]], Awaitable[str]]:
    async def run(args: dict[str, Any]) -> str:
        return handler(args)

    return run
