"""The agent's only network path out of an OS sandbox: a listener made inside, served outside.

The sandbox keeps its own network namespace (``--unshare-net``), where only its loopback
exists. Before the agent starts, a few lines of Python inside bind ``127.0.0.1:PORT`` in that
namespace and hand the listening socket out over a socketpair the runner passed in
(``SCM_RIGHTS``); the channel is closed before the agent runs. The proxy outside accepts the
agent's connections on that socket. So the agent reaches the proxy, and nothing else: no
host network, no other port, no Unix socket (``socket(AF_UNIX)`` stays denied by seccomp).
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable

SANDBOX_PORT = 47800
HAND_OUT = (
    "import socket as s;l=s.socket();l.bind(('127.0.0.1',{port}));l.listen(128);"
    "s.send_fds(s.socket(fileno={fd}),[b'L'],[l.fileno()])"
)
NO_LISTENER = 97


class Channel:
    """The socketpair to one sandboxed command: ``fd`` goes in, the listener comes out."""

    def __init__(self, on_listener: Callable[[socket.socket], None]) -> None:
        self._outside, self._inside = socket.socketpair()
        self._on_listener = on_listener
        self._thread = threading.Thread(target=self._receive, daemon=True)
        self._thread.start()

    @property
    def fd(self) -> int:
        """The descriptor to pass into the sandbox (same number inside)."""
        return self._inside.fileno()

    def prologue(self, port: int = SANDBOX_PORT) -> str:
        """Shell lines that bind the port inside, hand it out, and close the channel."""
        code = HAND_OUT.format(port=port, fd=self.fd)
        return (
            f"python3 -c \"{code}\" || {{ echo 'garuda: no proxy listener in the sandbox'; "
            f"exit {NO_LISTENER}; }}\nexec {self.fd}>&-\n"
        )

    def _receive(self) -> None:
        try:
            _, fds, _, _ = socket.recv_fds(self._outside, 1, 1)
        except OSError:
            return
        for fd in fds:
            self._on_listener(socket.socket(fileno=fd))

    def close(self) -> None:
        """Close both ends (the receiving thread ends)."""
        self._inside.close()
        with contextlib.suppress(OSError):
            self._outside.shutdown(socket.SHUT_RDWR)
        self._outside.close()
        self._thread.join(timeout=5)
