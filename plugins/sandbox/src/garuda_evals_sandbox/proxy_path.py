"""``garuda sandbox check`` rows for the agent's path to its metering proxy.

One sandboxed command gets the proxy channel the way an agent CLI does (a listener bound in
the sandbox's own network namespace, served outside), then tries the proxy, the host's
loopback, another port, and the channel's descriptor after it was closed.
"""

from __future__ import annotations

import shlex
import socket
import threading

from garuda_evals.api import Executor
from garuda_evals_sandbox import judges
from garuda_evals_sandbox.escapes import Outcome
from garuda_evals_sandbox.lab import Lab
from garuda_evals_sandbox.netpath import SANDBOX_PORT, Channel

TIMEOUT_S = 60.0
ANSWER = b"proxy-ok"


def _try(label: str, code: str) -> str:
    body = f"try:\n    {code}\n    print({label!r}, 'OPEN')\nexcept OSError as e:\n    print({label!r}, 'refused', e)"
    return f"python3 -c {shlex.quote('import socket' + chr(10) + body)}"


def _serve(listener: socket.socket, served: list[bytes]) -> None:
    def loop() -> None:
        with listener:
            listener.settimeout(TIMEOUT_S)
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            with connection:
                served.append(connection.recv(64))
                connection.sendall(ANSWER)

    threading.Thread(target=loop, daemon=True).start()


def command(lab: Lab, fd: int) -> str:
    """The probe lines after the channel's prologue."""
    proxy = (
        f"c = socket.create_connection(('127.0.0.1', {SANDBOX_PORT}), timeout=10); "
        "c.sendall(b'hi'); print(c.recv(64).decode())"
    )
    host = f"socket.create_connection(('127.0.0.1', {lab.tcp_port}), timeout=5)"
    other = f"socket.create_connection(('127.0.0.1', {SANDBOX_PORT + 1}), timeout=5)"
    channel = f"socket.socket(fileno={fd}).sendall(b'x')"
    return "\n".join(
        [
            _try("proxy", proxy),
            _try("host loopback", host),
            _try("other port", other),
            _try("channel", channel),
        ]
    )


async def check_proxy_path(executor: Executor, lab: Lab) -> list[Outcome]:
    """One control (the proxy answers) and three escapes, judged on the host side."""
    served: list[bytes] = []
    channel = Channel(lambda listener: _serve(listener, served))
    try:
        result = await executor.run(
            channel.prologue() + command(lab, channel.fd),
            cwd=lab.work,
            env=lab.env(),
            timeout_s=TIMEOUT_S,
            pass_fds=(channel.fd,),
        )
    finally:
        channel.close()
    output = result.output
    reached = served == [b"hi"] and ANSWER.decode() in output
    host = judges.tcp(lab, result)
    return [
        Outcome(
            "agent reaches its proxy (listener passed out of the sandbox)",
            reached,
            True,
            "works" if reached else f"no answer: {output.strip()[-160:]}",
        ),
        Outcome(
            "agent reaches the host's loopback beside its proxy",
            host is None,
            False,
            host or "refused",
        ),
        Outcome(
            "agent reaches another port of its own loopback",
            "other port OPEN" not in output,
            False,
            "connected" if "other port OPEN" in output else "refused",
        ),
        Outcome(
            "agent uses the proxy channel's descriptor",
            "channel OPEN" not in output,
            False,
            "sent on it" if "channel OPEN" in output else "closed before the agent starts",
        ),
    ]
