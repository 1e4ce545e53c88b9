"""The bait for escape attempts: a fake home with a key, a fake checkout, host servers."""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import tempfile
import threading
from pathlib import Path
from types import TracebackType

from garuda_evals.environment import ENV_ALLOW, check_environment
from garuda_evals.executors.base import SandboxPolicy

# /var/tmp, not /tmp: a sandbox that swaps /tmp for its own would hide the bait for free
# and the lab would not test the rules that matter.
VISIBLE_ROOTS = ("/var/tmp",)


def _lab_parent() -> str:
    for root in VISIBLE_ROOTS:
        if os.path.isdir(root) and os.access(root, os.W_OK):
            return root
    return tempfile.gettempdir()


class _Listener:
    """A host server in a thread that counts the connections it accepts."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.accepted = 0
        sock.listen(16)
        sock.settimeout(0.2)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        """Stop the thread and close the socket."""
        self._stop.set()
        self._thread.join(timeout=5)
        self.sock.close()


class Lab:
    """A temporary folder with everything an escaping command would want to reach.

    ``work`` is the task folder; ``home`` holds ``.ssh/id_ed25519``; ``checkout`` plays the
    user's own repository (hidden) with ``checkout/node_modules`` shown read-only; a TCP
    server listens on the host's 127.0.0.1 and a Unix socket server at ``host.sock``.
    """

    def __init__(self) -> None:
        self.token = secrets.token_hex(8)
        self.root = Path(
            os.path.realpath(tempfile.mkdtemp(prefix="garuda-lab-", dir=_lab_parent()))
        )
        self.work = self.root / "work"
        self.home = self.root / "home"
        self.outside = self.root / "outside"
        self.checkout = self.root / "checkout"
        self.shown = self.checkout / "node_modules"
        self.host_tmp_file = Path(tempfile.gettempdir()) / f"garuda-lab-{self.token}"
        for folder in (self.work, self.home / ".ssh", self.outside, self.shown):
            folder.mkdir(parents=True)
        (self.home / ".ssh" / "id_ed25519").write_text(f"KEY-{self.token}\n")
        (self.checkout / "secret.txt").write_text(f"CHECKOUT-{self.token}\n")
        (self.shown / "ok.txt").write_text(f"SHOWN-{self.token}\n")
        tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        tcp.bind(("127.0.0.1", 0))
        self.tcp = _Listener(tcp)
        self.tcp_port: int = tcp.getsockname()[1]
        self.unix_path = self.root / "host.sock"
        unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        unix.bind(str(self.unix_path))
        self.unix = _Listener(unix)

    def policy(self) -> SandboxPolicy:
        """The task policy: write ``work``; hide ``checkout`` but show its ``node_modules``."""
        return SandboxPolicy(
            workspace=self.work,
            read_only=(self.shown,),
            hidden=(self.checkout,),
            env_allow=ENV_ALLOW,
        )

    def env(self) -> dict[str, str]:
        """The check environment, with HOME pointing at the fake home."""
        return {**check_environment(), "HOME": str(self.home)}

    def close(self) -> None:
        """Stop the servers and remove every file the lab made."""
        self.tcp.close()
        self.unix.close()
        self.host_tmp_file.unlink(missing_ok=True)
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Lab:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
