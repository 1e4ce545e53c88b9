"""One turn of an agent CLI: its proxy listener, private home, command, and the metering."""

from __future__ import annotations

import os
import shlex
import tempfile
from pathlib import Path

import anyio

from garuda_evals.api import (
    BUDGET_STOP,
    Agent,
    AgentOutcome,
    AgentTurn,
    CommandResult,
    Usage,
    remove_tree,
)
from garuda_evals_agent.budget import Budget
from garuda_evals_agent_cli.adapters.base import Adapter, Invocation, OwnUsage
from garuda_evals_agent_cli.proxy import STOPPED, ProxySession
from garuda_evals_agent_cli.upstream import PLACEHOLDER_KEY, Upstream
from garuda_evals_sandbox.netpath import SANDBOX_PORT, Channel

SANDBOX_HOME = "/tmp/garuda-agent-home"
OUTPUT_TAIL = 8000


class CliAgentError(RuntimeError):
    """The CLI could not start (ERR): its output is the reason."""


def cross_check(metered: Usage, own: OwnUsage | None, name: str) -> list[str]:
    """A notice when the CLI's own report differs from what the proxy metered."""
    if own is None:
        return [f"{name} printed no usage report of its own; only the proxy's counts are used"]
    pairs = {
        "input": (own.input_tokens, metered.input_tokens),
        "cache read": (own.cache_read_tokens, metered.cache_read_tokens),
        "cache write": (own.cache_write_tokens, metered.cache_write_tokens),
        "output": (own.output_tokens, metered.output_tokens),
    }
    wrong = [f"{kind} {mine} vs {seen}" for kind, (mine, seen) in pairs.items() if mine != seen]
    if not wrong:
        return []
    return [f"{name}'s own usage differs from the proxy's (CLI vs proxy): {', '.join(wrong)}"]


class CliAgent(Agent):
    """Runs one adapter's CLI through the run's executor, metered by the run's proxy."""

    def __init__(
        self,
        adapter: Adapter,
        program: Path,
        provider: str,
        model: str,
        upstream: Upstream,
        budget: Budget,
        max_turns: int | None = None,
    ) -> None:
        self.adapter = adapter
        self.program = program
        self.provider = provider
        self.model = model
        self.upstream = upstream
        self.budget = budget
        self.max_turns = max_turns

    def budget_spent(self) -> str | None:
        """Why no further task of the run should start: ``--max-cost`` is reached."""
        return self.budget.reason()

    async def run(self, turn: AgentTurn) -> AgentOutcome:
        """Start the proxy listener, run the CLI once with the task's time, meter its calls."""
        session = ProxySession(self.upstream, self.budget, turn.transcript)
        session.on_call = lambda: _report(turn, session)
        _report(turn, session)  # a known zero: the proxy meters every call from here
        sandboxed = turn.executor.info().kind != "host"
        channel: Channel | None = None
        home_dir: Path | None = None
        try:
            if sandboxed:
                channel = Channel(session.adopt)
                origin = f"http://127.0.0.1:{SANDBOX_PORT}"
                home = SANDBOX_HOME
                prologue, fds = channel.prologue(), (channel.fd,)
            else:
                origin = f"http://127.0.0.1:{session.listen_tcp()}"
                home_dir = Path(tempfile.mkdtemp(prefix="garuda-agent-home-"))
                home, prologue, fds = str(home_dir), "", ()
            model = self.adapter.model_argument(self.provider, self.model)
            call = Invocation(origin + self.upstream.base_path, model, home, self.max_turns)
            command = prologue + self._setup(call) + self.adapter.command(str(self.program), call)
            env = self._environment(turn, call)
            session.write("agent_cli", {"agent": self.adapter.name, "command": command})
            result = await turn.executor.run(
                command, cwd=turn.workspace, env=env, timeout_s=turn.timeout_s, pass_fds=fds
            )
            await session.drain()
            return self._outcome(turn, session, result)
        except anyio.get_cancelled_exc_class():
            # Ctrl-C or the task's time limit: the CLI is killed; its calls still running
            # count now, not after they end (a stalled API could keep them for minutes).
            with anyio.CancelScope(shield=True):
                session.stop_listeners()
                running = session.settle(STOPPED)
                _report(turn, session)
                counted = (
                    f"; {running} model call(s) still running counted with unknown tokens"
                    if running
                    else ""
                )
                turn.events("notice", f"{self.adapter.name} stopped{counted}")
            raise
        finally:
            with anyio.CancelScope(shield=True):
                if channel is not None:
                    channel.close()
                if home_dir is not None:
                    remove_tree(home_dir)
                session.close()

    def _setup(self, call: Invocation) -> str:
        lines = [f"export HOME={shlex.quote(call.home)}", 'mkdir -p "$HOME"']
        for relative, text in self.adapter.home_files(self.provider, call).items():
            target = f"{call.home}/{relative}"
            lines.append(f"mkdir -p {shlex.quote(os.path.dirname(target))}")
            lines.append(f"printf '%s' {shlex.quote(text)} > {shlex.quote(target)}")
        return "\n".join(lines) + "\n"

    def _environment(self, turn: AgentTurn, call: Invocation) -> dict[str, str]:
        folder = str(self.program.parent)
        path = turn.env.get("PATH", "/usr/bin:/bin")
        return {
            **turn.env,
            **self.adapter.environment(self.provider, call, PLACEHOLDER_KEY),
            "PATH": f"{folder}:{path}",
            "HOME": call.home,
            "GARUDA_PROMPT": turn.prompt,
            "GARUDA_TASK_ID": turn.task.id,
        }

    def _outcome(
        self, turn: AgentTurn, session: ProxySession, result: CommandResult
    ) -> AgentOutcome:
        output = result.output
        session.write(
            "agent_cli_result",
            {
                "exitCode": result.exit_code,
                "timedOut": result.timed_out,
                "output": output[-OUTPUT_TAIL:],
            },
        )
        usage = session.usage()
        own = self.adapter.own_usage(output)
        notices = cross_check(usage, own, self.adapter.name) if self.adapter.reports_usage else []
        stalled = session.steps == 0 and not session.refused and not result.timed_out
        if stalled and result.exit_code not in (0, None):
            raise CliAgentError(
                f"{self.adapter.name} exited {result.exit_code} before any model call: "
                + output.strip()[-1000:]
            )
        for notice in notices:
            turn.events("notice", notice)
        if session.refused:
            stop = BUDGET_STOP
        elif result.timed_out:
            stop = "timeout"
        elif own is not None and own.stop:
            stop = own.stop
        else:
            stop = f"exit {result.exit_code}"
        turn.events("tool", f"{self.adapter.name} exited {result.exit_code}")
        return AgentOutcome(steps=session.steps, usage=usage, stop_reason=stop, notices=notices)


def _report(turn: AgentTurn, session: ProxySession) -> None:
    turn.progress.steps = session.steps
    turn.progress.usage = session.usage()
