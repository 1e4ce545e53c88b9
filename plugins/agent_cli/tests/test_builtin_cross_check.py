"""The built-in agent and the proxy count the same conversation identically.

The built-in agent keeps its own meter (it runs in garuda's process, not in the sandbox, and
meters what the proxy cannot see: batch results, reservations of calls that broke off, the
model of each subagent call). This runs it with its real SDK through the proxy in front of
the fake server and compares the two counts of the very same calls.
"""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from garuda_evals.agents.base import AgentOutcome, AgentTurn
from garuda_evals.environment import check_environment
from garuda_evals.executors.host import HostExecutor
from garuda_evals.models.settings import RunSettings
from garuda_evals.models.task import CheckSpec, Task
from garuda_evals_agent.budget import Budget
from garuda_evals_agent.factory import GarudaAgentFactory
from garuda_evals_agent.testing import FakeModelServer, Reply, Text, Tokens, Use
from garuda_evals_agent_cli.proxy import ProxySession
from garuda_evals_agent_cli.upstream import upstream_for

KEY = "real-key-0123"
CONVERSATION = [
    Reply([Use("run_command", {"command": "echo one"})], usage=Tokens(1200, 40, 3000, 500)),
    Reply([Use("run_command", {"command": "echo two"})], usage=Tokens(300, 25, 3500, 0)),
    Reply([Use("run_command", {"command": "echo three"})], usage=None),
    Reply([Text("Done.")], usage=Tokens(80, 9, 3600, 0)),
]
COUNTED = (
    "input_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "output_tokens",
    "reasoning_tokens",
    "tokens_known",
    "cost_usd",
    "cost_incomplete",
    "requests",
    "unreported_requests",
)
PROVIDERS = {
    "anthropic": ("ANTHROPIC", "anthropic/claude-sonnet-4-5", ""),
    "openai": ("OPENAI", "openai/gpt-4.1", "/v1"),
}


def run_through_proxy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, provider: str
) -> tuple[AgentOutcome, ProxySession]:
    """One turn of the built-in agent whose base URL is a proxy listener."""
    var, model, suffix = PROVIDERS[provider]
    with FakeModelServer(list(CONVERSATION)) as server:
        # a loopback URL names no provider: say whose prices apply
        prices = {"GARUDA_PRICE_PROVIDER": provider}
        environ = {f"{var}_BASE_URL": server.url + suffix, f"{var}_API_KEY": KEY, **prices}
        upstream = upstream_for(provider, environ)
        session = ProxySession(upstream, Budget(), tmp_path / "proxy.jsonl")
        try:
            url = f"http://127.0.0.1:{session.listen_tcp()}{upstream.base_path}"
            monkeypatch.setenv(f"{var}_BASE_URL", url)
            monkeypatch.setenv(f"{var}_API_KEY", KEY)
            monkeypatch.setenv("GARUDA_PRICE_PROVIDER", provider)
            settings = RunSettings(options={"agent": {"model": model}})
            factory = GarudaAgentFactory()
            factory.check_settings(settings)
            agent = factory.create(settings)
            workspace = tmp_path / "work"
            workspace.mkdir()
            turn = AgentTurn(
                task=Task(
                    id="t", title="t", prompt="p", check=CheckSpec(command="true", runner="junit")
                ),
                prompt="Do the task.",
                workspace=workspace,
                executor=HostExecutor(),
                env=check_environment(),
                timeout_s=600,
                transcript=tmp_path / "agent.jsonl",
                settings=settings,
                events=lambda kind, message: None,
            )
            outcome = anyio.run(agent.run, turn)
            session.close_listeners()
            return outcome, session
        finally:
            session.close()


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_the_built_in_agent_and_the_proxy_count_the_same_calls_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, provider: str
) -> None:
    outcome, session = run_through_proxy(tmp_path, monkeypatch, provider)
    assert outcome.stop_reason == "done"
    agent, proxy = outcome.usage, session.usage()
    assert outcome.steps == session.steps == len(CONVERSATION)
    mine = {name: getattr(agent, name) for name in COUNTED}
    seen = {name: getattr(proxy, name) for name in COUNTED}
    assert mine == seen
    assert agent.cost_usd > 0 and agent.unreported_requests == 1
