"""The metering proxy: one per run, one listener per task, forwarding to the real API.

On the way out it puts the real key where the agent holds the placeholder; on the way back
it streams the response through unchanged and reads its usage. Each model call is a step,
priced with genai-prices like the built-in agent's, and written to the task's transcript.
Past ``--max-cost`` it answers model calls with an error instead of forwarding them.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from garuda_evals.api import Transcript, Usage
from garuda_evals_agent.budget import Budget
from garuda_evals_agent.messages import CallUsage
from garuda_evals_agent.meter import UsageMeter
from garuda_evals_agent.pricing import price_call
from garuda_evals_agent_cli.upstream import PLACEHOLDER_KEY, Upstream
from garuda_evals_agent_cli.wire_usage import forwarded, model_of, protocol_of, read_usage

HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-connection",
        "transfer-encoding",
        "te",
        "trailer",
        "upgrade",
        "host",
        "content-length",
        "accept-encoding",
    }
)
KEY_HEADERS = frozenset({"x-api-key", "authorization", "x-goog-api-key", "api-key"})
"""Where a client sends its key; the placeholder becomes the real key there and nowhere else,
so an API that echoes a path or a header back (a 404 naming the URL) never shows the key."""
KEY_PARAMETER = "key"
BODY_CHARS = 200_000
UPSTREAM_TIMEOUT_S = 600.0
BUDGET_STATUS = 400
DRAIN_S = 60.0
STILL_RUNNING = "a model call was still running when the task ended; its usage is unknown"


class ProxySession:
    """One task's side of the proxy: its listeners, steps, usage and transcript."""

    def __init__(self, upstream: Upstream, budget: Budget, transcript: Path) -> None:
        self.upstream = upstream
        self.budget = budget
        self.meter = UsageMeter()
        self.steps = 0
        self.refused = 0
        self.notes: list[str] = []
        self.lock = threading.Lock()
        self._idle = threading.Condition(self.lock)
        self._in_flight = 0
        self._settled = False
        self._transcript = Transcript(transcript).__enter__()
        self._servers: list[ThreadingHTTPServer] = []
        self.on_call: Callable[[], None] = lambda: None
        """Called after each metered call (keeps the runner's view of the turn current)."""

    def listen_tcp(self) -> int:
        """Serve on a fresh port of the host's loopback; return the port."""
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._start(server)
        return int(server.server_address[1])

    def adopt(self, listener: socket.socket) -> None:
        """Serve on a listening socket made elsewhere (inside a sandbox's network namespace)."""
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self), bind_and_activate=False)
        server.socket.close()
        server.socket = listener
        self._start(server)

    def _start(self, server: ThreadingHTTPServer) -> None:
        server.daemon_threads = True
        thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        thread.start()
        with self.lock:
            self._servers.append(server)

    def usage(self) -> Usage:
        """What the task's model calls used, with the notes reading them raised."""
        with self.lock:
            usage = self.meter.usage
            extra = [n for n in self.notes if n not in usage.notes]
        return usage.model_copy(update={"notes": [*usage.notes, *extra]})

    def write(self, kind: str, data: dict[str, Any]) -> None:
        """One transcript line, from any of the proxy's threads."""
        with self.lock:
            self._transcript.write(kind, data)

    def begin(self) -> None:
        """A request arrived: ``close_listeners`` waits until it is metered."""
        with self.lock:
            self._in_flight += 1

    def end(self) -> None:
        """A request is answered and metered."""
        with self.lock:
            self._in_flight -= 1
            self._idle.notify_all()

    def close_listeners(self) -> None:
        """Stop every listener, then wait until the calls in flight are metered.

        A CLI may exit as soon as it has read the last event it needs, before the proxy has
        read the usage at the stream's end.
        """
        with self.lock:
            servers, self._servers = self._servers, []
        for server in servers:
            server.shutdown()
            server.server_close()
        with self.lock:
            if self._idle.wait_for(lambda: self._in_flight == 0, timeout=DRAIN_S):
                return
            # Answers still coming are the task's spend too: unknown, never zero.
            for _ in range(self._in_flight):
                self.steps += 1
                self.meter.add(CallUsage(reported=False), STILL_RUNNING)
            self._settled = True

    def close(self) -> None:
        """Stop every listener and close the transcript."""
        self.close_listeners()
        with self.lock:
            self._transcript.__exit__(None, None, None)

    def record(self, protocol: str, model: str, body: bytes) -> tuple[int, dict[str, Any]]:
        """Meter one answered model call: its step number and its usage for the transcript."""
        call, notes = read_usage(protocol, body)  # type: ignore[arg-type]
        if call.reported:
            price_call(call, model, self.upstream.prices)
        with self.lock:
            if not self._settled:  # else counted as unreported when the listeners closed
                self.steps += 1
                self.meter.add(call, "a response came without a usage report")
            step = self.steps
            self.notes += [n for n in notes if n not in self.notes]
        if call.cost_usd:
            self.budget.spend(call.cost_usd)
        self.on_call()
        return step, {
            "reported": call.reported,
            "input": call.input_tokens,
            "cacheRead": call.cache_read_tokens,
            "cacheWrite": call.cache_write_tokens,
            "output": call.output_tokens,
            "reasoning": call.reasoning_tokens,
            "costUsd": call.cost_usd,
        }


def _handler_for(session: ProxySession) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        pass

    Handler.session = session
    return Handler


def _with_key(path: str, key: str) -> str:
    """``path`` with the real key in a ``key=`` query parameter that holds the placeholder."""
    base, mark, query = path.partition("?")
    placeholder = f"{KEY_PARAMETER}={PLACEHOLDER_KEY}"
    parts = [f"{KEY_PARAMETER}={key}" if part == placeholder else part for part in query.split("&")]
    return f"{base}{mark}{'&'.join(parts)}" if mark else path


def _text(body: bytes) -> Any:
    text = body.decode("utf-8", errors="replace")
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text[:BODY_CHARS]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    session: ProxySession

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the transcript has every call."""

    def do_GET(self) -> None:
        """Forward."""
        self._forward()

    def do_POST(self) -> None:
        """Forward, metering model calls."""
        self._forward()

    def do_PUT(self) -> None:
        """Forward."""
        self._forward()

    def do_DELETE(self) -> None:
        """Forward."""
        self._forward()

    def do_HEAD(self) -> None:
        """Forward."""
        self._forward()

    def _read_body(self) -> bytes:
        if self.headers.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("content-length") or 0)
        return self.rfile.read(length) if length else b""

    def _forward(self) -> None:
        self.session.begin()
        try:
            self._forward_metered()
        finally:
            self.session.end()

    def _forward_metered(self) -> None:
        session = self.session
        body = self._read_body()
        protocol = protocol_of(self.command, self.path)
        request = _text(body) if body else None
        if not forwarded(self.command, self.path):
            session.write("proxy_refused", {"path": self.path, "reason": "not metered"})
            self._plain(404, f"garuda proxy: {self.command} {self.path} is not a metered call")
            return
        if protocol is not None and session.budget.exhausted():
            with session.lock:
                session.refused += 1
            session.write("proxy_refused", {"path": self.path, "reason": "budget"})
            self._refuse(protocol)
            return
        session.write("proxy_request", {"method": self.command, "path": self.path, "body": request})
        try:
            response, connection = self._send_upstream(body)
        except OSError as error:
            session.write("proxy_error", {"path": self.path, "error": str(error)})
            self._plain(502, f"garuda proxy: upstream unreachable: {error}")
            return
        try:
            received = self._relay(response)
        finally:
            connection.close()
        entry: dict[str, Any] = {"path": self.path, "status": response.status}
        if protocol is not None and 200 <= response.status < 300:
            step, usage = session.record(protocol, model_of(protocol, self.path, request), received)
            entry.update(step=step, usage=usage)
        entry["body"] = _text(received)
        session.write("proxy_response", entry)

    def _send_upstream(
        self, body: bytes
    ) -> tuple[http.client.HTTPResponse, http.client.HTTPConnection]:
        upstream = self.session.upstream
        scheme, host, port = upstream.origin
        kind = http.client.HTTPSConnection if scheme == "https" else http.client.HTTPConnection
        connection = kind(host, port, timeout=UPSTREAM_TIMEOUT_S)
        headers = {}
        for name, value in self.headers.items():
            if name.lower() in HOP_BY_HOP:
                continue
            if PLACEHOLDER_KEY in value and name.lower() in KEY_HEADERS:
                if not upstream.key:
                    continue
                value = value.replace(PLACEHOLDER_KEY, upstream.key)
            headers[name] = value
        headers["Accept-Encoding"] = "identity"
        if body or self.command in ("POST", "PUT"):
            headers["Content-Length"] = str(len(body))
        path = _with_key(self.path, upstream.key)
        connection.request(self.command, path, body=body or None, headers=headers)
        return connection.getresponse(), connection

    def _relay(self, response: http.client.HTTPResponse) -> bytes:
        """Send the response on as it arrives (chunked); return all of it.

        A client that hangs up early (once it has the event it waits for) stops the sending,
        not the reading: the usage at the end of the stream is still metered.
        """
        listening = self._send(self._head(response))
        received = bytearray()
        while True:
            data = response.read1(65536)
            if not data:
                break
            received += data
            if listening:
                listening = self._send(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        if listening:
            self._send(b"0\r\n\r\n")
        else:
            self.close_connection = True
        return bytes(received)

    def _head(self, response: http.client.HTTPResponse) -> bytes:
        lines = [f"HTTP/1.1 {response.status} {response.reason}"]
        for name, value in response.getheaders():
            if name.lower() not in HOP_BY_HOP:
                lines.append(f"{name}: {value}")
        lines.append("Transfer-Encoding: chunked")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    def _send(self, data: bytes) -> bool:
        try:
            self.wfile.write(data)
            self.wfile.flush()
        except OSError:
            return False
        return True

    def _refuse(self, protocol: str) -> None:
        cap = self.session.budget.max_cost_usd
        message = f"garuda: the run's spend cap (--max-cost {cap}) is reached; call refused"
        if protocol == "anthropic":
            body: dict[str, Any] = {
                "type": "error",
                "error": {"type": "invalid_request_error", "message": message},
            }
        elif protocol == "gemini":
            body = {
                "error": {"code": BUDGET_STATUS, "message": message, "status": "INVALID_ARGUMENT"}
            }
        else:
            body = {
                "error": {"type": "invalid_request_error", "message": message, "code": "budget"}
            }
        self._json(BUDGET_STATUS, body)

    def _plain(self, status: int, text: str) -> None:
        self._json(status, {"error": {"type": "proxy_error", "message": text}})

    def _json(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
