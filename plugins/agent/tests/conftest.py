"""Fixtures for the agent plugin's tests: a fake model server and a way to run one turn."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from garuda_evals.agents.base import Agent, AgentOutcome, AgentTurn, Progress
from garuda_evals.environment import check_environment
from garuda_evals.executors.host import HostExecutor
from garuda_evals.models.settings import RunSettings
from garuda_evals.models.task import CheckSpec, Task
from garuda_evals_agent.factory import GarudaAgentFactory
from garuda_evals_agent.testing import FakeModelServer

MODEL_VARS = (
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OLLAMA_HOST",
    "OLLAMA_BASE_URL",
    "GARUDA_MODEL",
    "GARUDA_PRICE_PROVIDER",
)


@pytest.fixture
def model_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No model variables from the caller; short retry waits and batch polls."""
    for name in MODEL_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GARUDA_AGENT_RETRY_DELAY_S", "0.01")
    monkeypatch.setenv("GARUDA_AGENT_RETRIES", "3")
    monkeypatch.setenv("GARUDA_BATCH_POLL_S", "0.01")
    return monkeypatch


@pytest.fixture
def fake_server(model_env: pytest.MonkeyPatch) -> Iterator[Callable[..., FakeModelServer]]:
    """``fake_server(script, provider="anthropic")`` starts a scripted server and points
    the provider's base URL (and a test key) at it."""
    servers: list[FakeModelServer] = []

    def start(script: list[Any], provider: str = "anthropic", **options: Any) -> FakeModelServer:
        server = FakeModelServer(script, **options).__enter__()
        servers.append(server)
        if provider == "anthropic":
            model_env.setenv("ANTHROPIC_API_KEY", "test-key")
            model_env.setenv("ANTHROPIC_BASE_URL", server.url)
        elif provider == "openai":
            model_env.setenv("OPENAI_API_KEY", "test-key")
            model_env.setenv("OPENAI_BASE_URL", f"{server.url}/v1")
        else:
            model_env.setenv("OLLAMA_HOST", server.url.removeprefix("http://"))
        return server

    yield start
    for server in servers:
        server.__exit__(None, None, None)


class TurnRun:
    """What one turn did: the outcome (or the error), live events and transcript lines."""

    def __init__(
        self,
        outcome: AgentOutcome | None,
        error: BaseException | None,
        events: list[tuple[str, str]],
        transcript: Path,
    ) -> None:
        self.outcome = outcome
        self.error = error
        self.events = events
        self.transcript = transcript

    def lines(self, kind: str | None = None) -> list[dict[str, Any]]:
        """Transcript lines, optionally of one type."""
        rows = [json.loads(line) for line in self.transcript.read_text().splitlines()]
        return [row for row in rows if kind is None or row["type"] == kind]


@pytest.fixture
def run_turn(tmp_path: Path) -> Callable[..., TurnRun]:
    """``run_turn(settings, files={...}, prompt=...)`` runs the garuda agent on one workspace
    (``agent``: this one, for turns that share its budget; ``progress``: the turn's, to read)."""

    def run(
        settings: RunSettings,
        *,
        files: dict[str, str] | None = None,
        prompt: str = "Do the task.",
        workspace: Path | None = None,
        task: Task | None = None,
        limit_s: float | None = None,
        agent: Agent | None = None,
        progress: Progress | None = None,
    ) -> TurnRun:
        if agent is None:
            factory = GarudaAgentFactory()
            factory.check_settings(settings)
            agent = factory.create(settings)
        root = workspace or tmp_path / "work"
        root.mkdir(parents=True, exist_ok=True)
        for name, text in (files or {}).items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        events: list[tuple[str, str]] = []
        transcript = tmp_path / "transcript.jsonl"
        transcript.unlink(missing_ok=True)
        turn = AgentTurn(
            task=task
            or Task(
                id="t", title="t", prompt=prompt, check=CheckSpec(command="true", runner="junit")
            ),
            prompt=prompt,
            workspace=root,
            executor=HostExecutor(),
            env=check_environment(),
            timeout_s=600,
            transcript=transcript,
            settings=settings,
            events=lambda kind, message: events.append((kind, message)),
            progress=progress if progress is not None else Progress(),
        )

        async def limited() -> AgentOutcome:
            with anyio.fail_after(limit_s):
                return await agent.run(turn)

        try:
            outcome = anyio.run(limited)
            return TurnRun(outcome, None, events, transcript)
        except Exception as error:
            return TurnRun(None, error, events, transcript)

    return run
