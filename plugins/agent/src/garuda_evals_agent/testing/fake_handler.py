"""The fake server's request handler: routes model calls, batches and faults."""

from __future__ import annotations

import json
import socket
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any

from garuda_evals_agent.testing import anthropic_fake, gemini_fake, openai_fake, responses_fake
from garuda_evals_agent.testing.script import Fault, Reply

if TYPE_CHECKING:
    from garuda_evals_agent.testing.fake_server import FakeModelServer


def handler_for(server: FakeModelServer) -> type[BaseHTTPRequestHandler]:
    """A handler class bound to ``server``."""

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
        entry = {
            "method": self.command,
            "path": path,
            "target": self.path,
            "body": body,
            "headers": dict(self.headers),
        }
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
            status = self.fake.batches.status(path.split("/")[-2], self.fake.url)
            self._json(200, {**status, "processing_status": "canceling"})
        elif path in ("/v1/chat/completions", "/chat/completions"):
            self._openai(body)
        elif path in ("/v1/responses", "/responses"):
            self._responses(body)
        elif path.endswith((":generateContent", ":streamGenerateContent")):
            self._gemini(path, body)
        else:
            self._not_found()

    def do_GET(self) -> None:
        """Batch status and results."""
        entry = self._record()
        if entry is None:
            return
        parts = entry["path"].strip("/").split("/")
        if parts[:3] == ["v1", "messages", "batches"] and len(parts) == 4:
            self._json(200, self.fake.batches.status(parts[3], self.fake.url, poll=True))
        elif parts[:3] == ["v1", "messages", "batches"] and parts[-1] == "results":
            self._batch_results(parts[3])
        else:
            self._not_found()

    def _not_found(self) -> None:
        """404 naming the whole URL, query included, as OpenAI's "Invalid URL" does."""
        message = f"Invalid URL ({self.command} {self.path})"
        self._json(404, anthropic_fake.error_json("not_found_error", message))

    def _anthropic(self, body: dict[str, Any]) -> None:
        item = self.fake.next_item()
        if item is None:
            self._json(400, anthropic_fake.error_json("invalid_request_error", "script used up"))
            return
        model = body.get("model", "")
        if isinstance(item, Fault) and not (item.drop or item.in_stream):
            self._json(item.status, anthropic_fake.error_json(item.error_type, "fake fault"))
            return
        reply = item if isinstance(item, Reply) else Reply([])
        events = anthropic_fake.sse_events(reply, model, f"msg_{len(self.fake.requests)}")
        if isinstance(item, Fault) and item.in_stream:
            error = anthropic_fake.error_json(item.error_type, "fake fault")
            events = [events[0], f"event: error\ndata: {json.dumps(error)}\n\n"]
            self._stream(events, drop=False)
            return
        if not body.get("stream"):
            message = anthropic_fake.message_json(reply, model, f"msg_{len(self.fake.requests)}")
            self._json(200, message)
            return
        self._stream(events, drop=isinstance(item, Fault))

    def _openai_item(self) -> tuple[Reply, bool] | None:
        """The next scripted item for an OpenAI endpoint as ``(reply, drop)``, or None after
        answering with the error it stands for (script used up, or a fault)."""
        item = self.fake.next_item()
        if item is None:
            self._json(400, openai_fake.error_json("invalid_request_error", "script used up"))
            return None
        if isinstance(item, Fault) and not item.drop:
            self._json(item.status, openai_fake.error_json("server_error", "fake fault"))
            return None
        return (item if isinstance(item, Reply) else Reply([])), isinstance(item, Fault)

    def _openai(self, body: dict[str, Any]) -> None:
        scripted = self._openai_item()
        if scripted is None:
            return
        reply, drop = scripted
        model, completion_id = body.get("model", ""), f"chatcmpl-{len(self.fake.requests)}"
        if not body.get("stream"):
            self._json(200, openai_fake.completion_json(reply, model, completion_id))
            return
        self._stream(openai_fake.sse_chunks(reply, model, completion_id), drop=drop)

    def _responses(self, body: dict[str, Any]) -> None:
        scripted = self._openai_item()
        if scripted is None:
            return
        reply, drop = scripted
        response_id = f"resp_{len(self.fake.requests)}"
        if not body.get("stream"):
            self._json(200, responses_fake.response_json(reply, body.get("model", ""), response_id))
            return
        events = responses_fake.sse_events(reply, body.get("model", ""), response_id)
        self._stream(events, drop=drop)

    def _gemini(self, path: str, body: dict[str, Any]) -> None:
        item = self.fake.next_item()
        if not isinstance(item, Reply):
            error = {"error": {"code": 500, "message": "fake fault", "status": "INTERNAL"}}
            self._json(item.status if isinstance(item, Fault) else 400, error)
            return
        model = path.rsplit("/", 1)[-1].split(":", 1)[0]
        if path.endswith(":generateContent"):
            self._json(200, gemini_fake.response_json(item, model))
        elif "alt=sse" in self.path:
            self._stream(gemini_fake.sse_events(item, model), drop=False)
        else:
            self._json_list(gemini_fake.stream_chunks(item, model))

    def _json_list(self, items: list[dict[str, Any]]) -> None:
        data = json.dumps(items).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _create_batch(self, body: dict[str, Any]) -> None:
        batch_id = self.fake.batches.create(body, self.fake.next_item())
        self._json(200, self.fake.batches.status(batch_id, self.fake.url))

    def _batch_results(self, batch_id: str) -> None:
        data = self.fake.batches.results(batch_id)
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
