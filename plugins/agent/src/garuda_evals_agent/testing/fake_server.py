"""A fake Anthropic + OpenAI-compatible server on 127.0.0.1, scripted per test.

It speaks Anthropic Messages (streamed), the Message Batches endpoints, OpenAI chat
completions (streamed), the OpenAI Responses API and Gemini generateContent (streamed or
not), answering each model call with the next item of its script.
Every request is recorded. It is bounded: after ``max_requests`` it answers 400.
"""

from __future__ import annotations

import sys
import threading
from http.server import ThreadingHTTPServer
from typing import Any

from garuda_evals_agent.testing.batches_fake import FakeBatches
from garuda_evals_agent.testing.fake_handler import handler_for
from garuda_evals_agent.testing.script import Fault, Reply

MODEL_CALL_PATHS = (
    "/v1/messages",
    "/v1/chat/completions",
    "/chat/completions",
    "/v1/responses",
    "/responses",
)


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away (Ctrl-C during a slow reply) is not an error here."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class FakeModelServer:
    """Use as a context manager; ``url`` is the base URL, ``requests`` what arrived."""

    def __init__(
        self, script: list[Reply | Fault], *, max_requests: int = 200, batch_polls: int = 2
    ) -> None:
        self.script = list(script)
        self.max_requests = max_requests
        self.requests: list[dict[str, Any]] = []
        self.batches = FakeBatches(batch_polls)
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self._server = _Server(("127.0.0.1", 0), handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> FakeModelServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def next_item(self) -> Reply | Fault | None:
        """The next scripted answer, or None when the script is used up. A slow Reply
        (``delay_s``) is waited for here, before anything is sent."""
        with self.lock:
            item = self.script.pop(0) if self.script else None
        if isinstance(item, Reply) and item.delay_s:
            self.stopping.wait(item.delay_s)
        return item

    def model_calls(self) -> list[dict[str, Any]]:
        """The recorded model-call requests (Messages, batch creations, chat completions)."""
        paths = (*MODEL_CALL_PATHS, "/v1/messages/batches")
        return [
            r
            for r in self.requests
            if r["method"] == "POST"
            and (r["path"] in paths or r["path"].endswith(("generateContent", "GenerateContent")))
        ]
