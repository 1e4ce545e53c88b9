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

from garuda_evals.api import ENV_ALLOW, SandboxPolicy, check_environment
from garuda_evals_sandbox.installed import PLUGIN_GROUP, plugin_folders
from garuda_evals_sandbox.paths import python_prefixes

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


SITE = Path("lib") / "python3.11" / "site-packages"
SUITE_FILE = Path("suite_data") / "lab" / "t1" / "solution" / "calc.py"


def _write(files: dict[Path, str]) -> None:
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _fake_environment(root: Path, token: str) -> None:
    """A Python environment with a regular install of a garuda suite plugin and one other
    package: ``garuda_evals_lab/suite_data/...`` must be hidden, ``otherpkg`` readable."""
    site = root / SITE
    plugin = site / "garuda_evals_lab-0.1.0.dist-info"
    other = site / "otherpkg-1.0.dist-info"
    _write(
        {
            root / "pyvenv.cfg": "home = /usr/bin\n",
            site / "garuda_evals_lab" / "__init__.py": "",
            site / "garuda_evals_lab" / SUITE_FILE: f"ANSWER = 'INSTALLED-{token}'\n",
            plugin / "METADATA": "Metadata-Version: 2.1\nName: garuda-evals-lab\nVersion: 0.1.0\n",
            plugin / "entry_points.txt": f"[{PLUGIN_GROUP}]\nlab = garuda_evals_lab\n",
            plugin / "RECORD": (
                "garuda_evals_lab/__init__.py,,\n"
                f"garuda_evals_lab/{SUITE_FILE.as_posix()},,\n"
                "garuda_evals_lab-0.1.0.dist-info/RECORD,,\n"
            ),
            site / "otherpkg" / "__init__.py": f"NAME = 'OTHER-{token}'\n",
            other / "METADATA": "Metadata-Version: 2.1\nName: otherpkg\nVersion: 1.0\n",
            other / "RECORD": "otherpkg/__init__.py,,\n",
        }
    )


def _suite_copy(root: Path, token: str) -> None:
    """A copy of a suite folder somewhere else on the machine, with its reference solution."""
    _write(
        {
            root / "suite.toml": 'name = "copy"\n[check]\ncommand = "true"\n',
            root / "t1" / "task.toml": 'title = "t"\nprompt = "p"\n',
            root / "t1" / "files" / "calc.py": "def add(a, b):\n    return 0\n",
            root / "t1" / "solution" / "calc.py": f"# COPY-{token}\n",
        }
    )


def installed_suite_file() -> Path | None:
    """A reference solution of this very garuda's installed suites, when they are a regular
    install (an editable one keeps them in the project tree, which is not shown)."""
    for folder in plugin_folders(python_prefixes(os.environ)):
        for path in sorted(folder.glob("suite_data/*/*/solution/**/*")):
            if path.is_file() and path.stat().st_size >= 32:
                return path
    return None


class Lab:
    """A temporary folder with everything an escaping command would want to reach.

    ``work`` is the task folder; ``home`` holds ``.ssh/id_ed25519`` and ``.m2/repository``;
    ``checkout`` plays the user's own repository (hidden) with ``checkout/node_modules``
    shown read-only; ``pyenv`` is a Python environment (shown) with a regular install of a
    suite plugin; ``copy`` is a copy of a suite folder elsewhere; a TCP server listens on the
    host's 127.0.0.1 and a Unix socket server at ``host.sock``.
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
        self.pyenv = self.root / "pyenv"
        self.installed = self.pyenv / SITE / "garuda_evals_lab" / SUITE_FILE
        self.other_package = self.pyenv / SITE / "otherpkg" / "__init__.py"
        self.copy = self.root / "elsewhere" / "suite-copy"
        self.real_installed = installed_suite_file()
        self.m2_file = self.home / ".m2" / "repository" / "lab" / "lab.pom"
        self.host_tmp_file = Path(tempfile.gettempdir()) / f"garuda-lab-{self.token}"
        for folder in (self.work, self.home / ".ssh", self.outside, self.shown):
            folder.mkdir(parents=True)
        (self.home / ".ssh" / "id_ed25519").write_text(f"KEY-{self.token}\n")
        (self.checkout / "secret.txt").write_text(f"CHECKOUT-{self.token}\n")
        (self.shown / "ok.txt").write_text(f"SHOWN-{self.token}\n")
        _fake_environment(self.pyenv, self.token)
        _suite_copy(self.copy, self.token)
        _write({self.m2_file: f"<project>M2-{self.token}</project>\n"})
        tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        tcp.bind(("127.0.0.1", 0))
        self.tcp = _Listener(tcp)
        self.tcp_port: int = tcp.getsockname()[1]
        self.unix_path = self.root / "host.sock"
        unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        unix.bind(str(self.unix_path))
        self.unix = _Listener(unix)

    def policy(self) -> SandboxPolicy:
        """The task policy: write ``work``; hide ``checkout`` but show its ``node_modules``;
        show the ``pyenv`` environment (as a repo task shows its linked ``.venv``)."""
        return SandboxPolicy(
            workspace=self.work,
            read_only=(self.shown, self.pyenv),
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
