"""The metering proxy: one per run, one listener per task, forwarding to the real API.

On the way out it puts the real key where the agent holds the placeholder; on the way back
it streams the response through unchanged and reads its usage. Each model call is a step,
priced with genai-prices like the built-in agent's, and written to the task's transcript.
Past ``--max-cost`` it answers model calls with an error instead of forwarding them.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anyio

from garuda_evals.api import Transcript, Usage
from garuda_evals_agent.budget import Budget, TurnSpend
from garuda_evals_agent.messages import CallUsage
from garuda_evals_agent.meter import UsageMeter
from garuda_evals_agent.pricing import dearest_token, price_call
from garuda_evals_agent_cli.keys import outgoing
from garuda_evals_agent_cli.upstream import PLACEHOLDER_KEY, Upstream
from garuda_evals_agent_cli.wire_usage import (
    Protocol,
    forwarded,
    model_of,
    protocol_of,
    read_usage,
    reservation_of,
)

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
BODY_CHARS = 200_000
UPSTREAM_TIMEOUT_S = 600.0
BUDGET_STATUS = 400
DRAIN_S = 60.0
DRAIN_POLL_S = 0.05
STILL_RUNNING = "a model call was still running when the task ended; its usage is unknown"
STOPPED = "a model call was still running when the task was stopped; its usage is unknown"
UNREPORTED = "a response came without a complete usage report"
BROKEN = (OSError, http.client.HTTPException)
"""How an upstream connection fails (reset, cut mid-stream, closed by ``settle``)."""


@dataclass
class Call:
    """A model call in flight: its reservation, its upstream connection, whether its request
    went out, whether it is counted."""

    reservation: int
    connection: http.client.HTTPConnection | None = None
    sent: bool = False
    counted: bool = False


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
        self._requests = 0
        self._calls: list[Call] = []
        self._spend = TurnSpend(budget)
        self._transcript: Transcript | None = Transcript(transcript).__enter__()
        self._servers: list[ThreadingHTTPServer] = []
        self.on_call: Callable[[], None] = lambda: None
        """Called after each metered call (keeps the runner's view of the turn current)."""

    def listen_tcp(self) -> int:
        """Serve on a fresh port of the host's loopback; return the port."""
        server = _Server(("127.0.0.1", 0), _handler_for(self))
        self._start(server)
        return int(server.server_address[1])

    def adopt(self, listener: socket.socket) -> None:
        """Serve on a listening socket made elsewhere (inside a sandbox's network namespace)."""
        server = _Server(("127.0.0.1", 0), _handler_for(self), bind_and_activate=False)
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
        """One transcript line, from any of the proxy's threads (none once closed).

        The real key never reaches a line, whatever an upstream sent back."""
        key = self.upstream.key
        if key and key in json.dumps(data):
            data = json.loads(json.dumps(data).replace(key, PLACEHOLDER_KEY))
        with self.lock:
            if self._transcript is not None:
                self._transcript.write(kind, data)

    @property
    def in_flight(self) -> int:
        """Requests still being answered."""
        with self.lock:
            return self._requests

    def begin(self) -> None:
        """A request arrived: ``close_listeners`` waits until it is answered."""
        with self.lock:
            self._requests += 1

    def end(self) -> None:
        """A request is answered."""
        with self.lock:
            self._requests -= 1
            self._idle.notify_all()

    def can_count(self, model: str) -> bool:
        """Whether the spend cap can count a call on ``model``: no cap, or a known price.
        A call it cannot count is refused, as a run whose model has no price is at start."""
        if (
            self.budget.max_cost_usd is None
            or dearest_token(model, self.upstream.prices) is not None
        ):
            return True
        note = f"calls on {model} were refused: --max-cost cannot count them (no known price)"
        with self.lock:
            self.notes += [] if note in self.notes else [note]
        return False

    def forget(self, call: Call) -> None:
        """A model call the API refused (an HTTP error): not a step, nothing spent."""
        with self.lock:
            call.counted = True
            if call in self._calls:
                self._calls.remove(call)

    def start_call(self, reservation: int) -> Call:
        """A model call is sent upstream: it counts from now on, answered or not."""
        call = Call(reservation)
        with self.lock:
            self._calls.append(call)
        return call

    def stop_listeners(self) -> None:
        """Stop accepting requests (those being answered go on)."""
        with self.lock:
            servers, self._servers = self._servers, []
        for server in servers:
            server.shutdown()
            server.server_close()

    def close_listeners(self) -> None:
        """Stop every listener, then wait up to ``DRAIN_S`` until the calls in flight are
        metered; count those still running as unreported (``settle``).

        A CLI may exit as soon as it has read the last event it needs, before the proxy has
        read the usage at the stream's end.
        """
        self.stop_listeners()
        with self.lock:
            self._idle.wait_for(lambda: self._requests == 0, timeout=DRAIN_S)
        self.settle(STILL_RUNNING)

    async def drain(self) -> None:
        """``close_listeners`` for the event loop: the wait can be cancelled (Ctrl-C)."""
        self.stop_listeners()
        with anyio.move_on_after(DRAIN_S):
            while self.in_flight:
                await anyio.sleep(DRAIN_POLL_S)
        self.settle(STILL_RUNNING)

    def settle(self, note: str) -> int:
        """Count every model call still running as a step without a usage report (tokens
        unknown, its reservation; cost a minimum), and cut its upstream connection (the
        API stops generating). Returns how many were counted."""
        with self.lock:
            running = [call for call in self._calls if not call.counted]
            for call in running:
                call.counted = True
                self.steps += 1
                self.meter.add(CallUsage(reported=False, reservation=call.reservation), note)
            self._calls = []
            self._spend.update(
                self.budget.counted(self.meter.usage), self.meter.usage.cost_incomplete
            )
        for call in running:
            _cut(call.connection)
        if running:
            self.on_call()
        return len(running)

    def close(self) -> None:
        """Stop every listener, count what still runs, and close the transcript."""
        self.stop_listeners()
        self.settle(STILL_RUNNING)
        with self.lock:
            if self._transcript is not None:
                self._transcript.__exit__(None, None, None)
                self._transcript = None

    def record(
        self, call: Call, protocol: Protocol, model: str, body: bytes, *, whole: bool = True
    ) -> tuple[int | None, dict[str, Any]]:
        """Meter one answered model call: its step number (None when ``settle`` counted it
        already) and its usage for the transcript."""
        usage, notes = read_usage(protocol, body, whole=whole)
        usage.reservation = call.reservation
        price_call(usage, model, self.upstream.prices)
        step: int | None = None
        with self.lock:
            if call in self._calls:
                self._calls.remove(call)
            if not call.counted:
                call.counted = True
                self.steps += 1
                self.meter.add(usage, UNREPORTED)
                self._spend.update(
                    self.budget.counted(self.meter.usage), self.meter.usage.cost_incomplete
                )
                step = self.steps
            self.notes += [n for n in notes if n not in self.notes]
        self.on_call()
        return step, {
            "reported": usage.reported,
            "input": usage.input_tokens,
            "cacheRead": usage.cache_read_tokens,
            "cacheWrite": usage.cache_write_tokens,
            "output": usage.output_tokens,
            "reasoning": usage.reasoning_tokens,
            "costUsd": usage.cost_usd,
        }


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client or an upstream that went away is the transcript's business, not stderr's."""
        if isinstance(sys.exc_info()[1], BROKEN):
            return
        super().handle_error(request, client_address)


def _cut(connection: http.client.HTTPConnection | None) -> None:
    """End an upstream connection from another thread: its reader gets an error at once."""
    sock = connection.sock if connection is not None else None
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)


def _handler_for(session: ProxySession) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        pass

    Handler.session = session
    return Handler


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
            cap = session.budget.max_cost_usd
            self._refuse(protocol, f"the run's spend cap (--max-cost {cap}) is reached")
            return
        if protocol is not None and not session.can_count(model_of(protocol, self.path, request)):
            session.write("proxy_refused", {"path": self.path, "reason": "no known price"})
            model = model_of(protocol, self.path, request)
            self._refuse(protocol, f"--max-cost cannot count a call on {model}: no known price")
            return
        session.write("proxy_request", {"method": self.command, "path": self.path, "body": request})
        call = None
        if protocol is not None:
            call = session.start_call(reservation_of(protocol, request, body))
        try:
            response, connection = self._send_upstream(body, call)
        except BROKEN as error:
            if call is not None and protocol is not None and call.sent:
                # sent, perhaps billed: unknown, never nothing
                session.record(call, protocol, model_of(protocol, self.path, request), b"")
            elif call is not None:
                session.forget(call)
            session.write("proxy_error", {"path": self.path, "error": str(error)})
            self._plain(502, f"garuda proxy: upstream unreachable: {error}")
            return
        try:
            received, whole = self._relay(response)
        finally:
            connection.close()
        entry: dict[str, Any] = {"path": self.path, "status": response.status}
        if call is not None and protocol is not None:
            if 200 <= response.status < 300:
                model = model_of(protocol, self.path, request)
                step, usage = session.record(call, protocol, model, received, whole=whole)
                entry.update(step=step, usage=usage)
            else:
                session.forget(call)
        if not whole:
            entry["broken"] = True
        entry["body"] = _text(received)
        session.write("proxy_response", entry)

    def _send_upstream(
        self, body: bytes, call: Call | None
    ) -> tuple[http.client.HTTPResponse, http.client.HTTPConnection]:
        upstream = self.session.upstream
        scheme, host, port = upstream.origin
        kind = http.client.HTTPSConnection if scheme == "https" else http.client.HTTPConnection
        connection = kind(host, port, timeout=UPSTREAM_TIMEOUT_S)
        if call is not None:
            call.connection = connection
        received = [(n, v) for n, v in self.headers.items() if n.lower() not in HOP_BY_HOP]
        target, sent = outgoing(upstream.provider, self.path, received, upstream.key)
        headers = dict(sent)
        headers["Accept-Encoding"] = "identity"
        if body or self.command in ("POST", "PUT"):
            headers["Content-Length"] = str(len(body))
        connection.request(self.command, target, body=body or None, headers=headers)
        if call is not None:
            call.sent = True
        return connection.getresponse(), connection

    def _relay(self, response: http.client.HTTPResponse) -> tuple[bytes, bool]:
        """Send the response on as it arrives (chunked); return all of it, and whether it
        arrived whole (False: the upstream connection broke before its end).

        A client that hangs up early (once it has the event it waits for) stops the sending,
        not the reading: the usage at the end of the stream is still metered.
        """
        listening = self._send(self._head(response))
        received = bytearray()
        whole = True
        while True:
            try:
                data = response.read1(65536)
            except BROKEN:
                whole = False
                break
            if not data:
                break
            received += data
            if listening:
                listening = self._send(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        if listening and whole:
            self._send(b"0\r\n\r\n")
        else:
            # The client must see the break too: a stream ended cleanly would read as whole.
            self.close_connection = True
        return bytes(received), whole

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

    def _refuse(self, protocol: str, why: str) -> None:
        message = f"garuda: {why}; call refused"
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
