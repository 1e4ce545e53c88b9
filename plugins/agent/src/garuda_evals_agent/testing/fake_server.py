"""A fake Anthropic + OpenAI-compatible server on 127.0.0.1, scripted per test.

It speaks Anthropic Messages (streamed), the Message Batches endpoints, and OpenAI chat
completions (streamed), answering each model call with the next item of its script.
Every request is recorded. It is bounded: after ``max_requests`` it answers 400.
"""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from garuda_evals_agent.testing import anthropic_fake, openai_fake
from garuda_evals_agent.testing.script import Fault, Reply

MODEL_CALL_PATHS = ("/v1/messages", "/v1/chat/completions", "/chat/completions")


class FakeModelServer:
    """Use as a context manager; ``url`` is the base URL, ``requests`` what arrived."""

    def __init__(
        self, script: list[Reply | Fault], *, max_requests: int = 200, batch_polls: int = 2
    ) -> None:
        self.script = list(script)
        self.batch_polls = batch_polls
        self.max_requests = max_requests
        self.requests: list[dict[str, Any]] = []
        self.batches: dict[str, dict[str, Any]] = {}
        self.lock = threading.RLock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
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
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def next_item(self) -> Reply | Fault | None:
        """The next scripted answer, or None when the script is used up."""
        with self.lock:
            return self.script.pop(0) if self.script else None

    def model_calls(self) -> list[dict[str, Any]]:
        """The recorded model-call requests (Messages, batch creations, chat completions)."""
        paths = (*MODEL_CALL_PATHS, "/v1/messages/batches")
        return [r for r in self.requests if r["method"] == "POST" and r["path"] in paths]


def _handler_for(server: FakeModelServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        fake = server

    return Handler


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    fake: FakeModelServer

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""

    def _record(self) -> dict[str, Any] | None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        body = json.loads(raw) if raw else None
        path = self.path.split("?")[0]
        entry = {"method": self.command, "path": path, "body": body, "headers": dict(self.headers)}
        with self.fake.lock:
            self.fake.requests.append(entry)
            over = len(self.fake.requests) > self.fake.max_requests
        if over:
            self._json(400, anthropic_fake.error_json("invalid_request_error", "too many requests"))
            return None
        return entry

    def do_POST(self) -> None:
        """Model calls and batch creation."""
        entry = self._record()
        if entry is None:
            return
        path, body = entry["path"], entry["body"] or {}
        if path == "/v1/messages":
            self._anthropic(body)
        elif path == "/v1/messages/batches":
            self._create_batch(body)
        elif path.endswith("/cancel"):
            self._json(
                200, {**self._batch_json(path.split("/")[-2]), "processing_status": "canceling"}
            )
        elif path in ("/v1/chat/completions", "/chat/completions"):
            self._openai(body)
        else:
            self._json(404, anthropic_fake.error_json("not_found_error", path))

    def do_GET(self) -> None:
        """Batch status and results."""
        entry = self._record()
        if entry is None:
            return
        parts = entry["path"].strip("/").split("/")
        if parts[:3] == ["v1", "messages", "batches"] and len(parts) == 4:
            self._json(200, self._batch_json(parts[3], poll=True))
        elif parts[:3] == ["v1", "messages", "batches"] and parts[-1] == "results":
            self._batch_results(parts[3])
        else:
            self._json(404, anthropic_fake.error_json("not_found_error", entry["path"]))

    def _anthropic(self, body: dict[str, Any]) -> None:
        item = self.fake.next_item()
        if item is None:
            self._json(400, anthropic_fake.error_json("invalid_request_error", "script used up"))
            return
        model = body.get("model", "")
        if isinstance(item, Fault) and not item.drop:
            self._json(item.status, anthropic_fake.error_json(item.error_type, "fake fault"))
            return
        reply = item if isinstance(item, Reply) else Reply([])
        events = anthropic_fake.sse_events(reply, model, f"msg_{len(self.fake.requests)}")
        if not body.get("stream"):
            message = anthropic_fake.message_json(reply, model, f"msg_{len(self.fake.requests)}")
            self._json(200, message)
            return
        self._stream(events, drop=isinstance(item, Fault))

    def _openai(self, body: dict[str, Any]) -> None:
        item = self.fake.next_item()
        if item is None:
            self._json(400, openai_fake.error_json("invalid_request_error", "script used up"))
            return
        if isinstance(item, Fault) and not item.drop:
            self._json(item.status, openai_fake.error_json("server_error", "fake fault"))
            return
        reply = item if isinstance(item, Reply) else Reply([])
        chunks = openai_fake.sse_chunks(
            reply, body.get("model", ""), f"chatcmpl-{len(self.fake.requests)}"
        )
        self._stream(chunks, drop=isinstance(item, Fault))

    def _create_batch(self, body: dict[str, Any]) -> None:
        request = (body.get("requests") or [{}])[0]
        with self.fake.lock:
            batch_id = f"msgbatch_{len(self.fake.batches) + 1:04d}"
            self.fake.batches[batch_id] = {
                "custom_id": request.get("custom_id"),
                "params": request.get("params") or {},
                "item": self.fake.next_item(),
                "polls": 0,
            }
        self._json(200, self._batch_json(batch_id))

    def _batch_json(self, batch_id: str, poll: bool = False) -> dict[str, Any]:
        batch = self.fake.batches.get(batch_id, {"polls": 0})
        if poll:
            batch["polls"] += 1
        ended = batch["polls"] >= self.fake.batch_polls
        return {
            "id": batch_id,
            "type": "message_batch",
            "processing_status": "ended" if ended else "in_progress",
            "request_counts": {
                "processing": 0 if ended else 1,
                "succeeded": 1 if ended else 0,
                "errored": 0,
                "canceled": 0,
                "expired": 0,
            },
            "created_at": "2026-01-01T00:00:00Z",
            "expires_at": "2026-01-02T00:00:00Z",
            "ended_at": "2026-01-01T00:01:00Z" if ended else None,
            "archived_at": None,
            "cancel_initiated_at": None,
            "results_url": f"{self.fake.url}/v1/messages/batches/{batch_id}/results"
            if ended
            else None,
        }

    def _batch_results(self, batch_id: str) -> None:
        batch = self.fake.batches[batch_id]
        item = batch["item"]
        if isinstance(item, Reply):
            message = anthropic_fake.message_json(
                item, batch["params"].get("model", ""), f"msg_{batch_id}"
            )
            result: dict[str, Any] = {"type": "succeeded", "message": message}
        else:
            kind = item.error_type if isinstance(item, Fault) else "invalid_request_error"
            result = {"type": "errored", "error": anthropic_fake.error_json(kind, "fake fault")}
        line = json.dumps({"custom_id": batch["custom_id"], "result": result}) + "\n"
        data = line.encode()
        self.send_response(200)
        self.send_header("content-type", "application/binary")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _json(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        if status in (429, 529, 503):
            self.send_header("retry-after", "0")
        self.end_headers()
        self.wfile.write(data)

    def _stream(self, events: list[str], *, drop: bool) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        sent = events[: max(1, len(events) // 2)] if drop else events
        for event in sent:
            data = event.encode()
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()
        if drop:
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()
