"""Preflight: an unreachable API or a refused key exits 1 before any task, naming the cause."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from garuda_evals_agent_cli.testing import eval_env, garuda_eval


class Refusing(BaseHTTPRequestHandler):
    """Answers every request 401, as an API does for a wrong key."""

    def do_GET(self) -> None:
        self.send_response(401)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@pytest.fixture
def refusing() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Refusing)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("agent", ["garuda", "claude-code"])
def test_unreachable_api_exits_1_before_any_task(
    tmp_path: Path, agents_dir: Path, claude_code: Path, python_task: Any, agent: str
) -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    env = eval_env(agents_dir, ANTHROPIC_API_KEY="k", ANTHROPIC_BASE_URL=url)
    done, report = garuda_eval(
        tmp_path, env, "--agent", agent, "-m", "anthropic/claude-sonnet-4-5",
        "-s", "python", "-t", python_task.id, "--executor", "host",
    )  # fmt: skip
    assert done.returncode == 1 and report is None, done.stderr
    assert f"preflight: the anthropic API at {url} is unreachable" in done.stderr


def test_refused_key_exits_1_naming_it(
    tmp_path: Path, agents_dir: Path, codex: Path, python_task: Any, refusing: str
) -> None:
    env = eval_env(agents_dir, OPENAI_API_KEY="wrong", OPENAI_BASE_URL=f"{refusing}/v1")
    done, report = garuda_eval(
        tmp_path, env, "--agent", "codex", "-m", "openai/gpt-5-codex",
        "-s", "python", "-t", python_task.id, "--executor", "host",
    )  # fmt: skip
    assert done.returncode == 1 and report is None, done.stderr
    assert "refused the key (HTTP 401)" in done.stderr
