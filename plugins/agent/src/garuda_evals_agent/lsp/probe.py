"""Ask a language server for one file's diagnostics and print them as JSON (one line).

Standard library only: garuda copies this file next to its managed servers and runs it with
``python3`` through the task's executor, so the server runs inside the sandbox:

    python3 probe.py ROOT FILE LANGUAGE_ID -- SERVER ARGS...

Output: ``{"ok": true, "server": "...", "diagnostics": [{"line", "column", "severity",
"message"}]}`` or ``{"ok": false, "error": "..."}``.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

TIMEOUT_S = float(os.environ.get("GARUDA_LSP_TIMEOUT_S", "90"))
QUIET_S = 1.5


class Server:
    """A language server on stdin/stdout, speaking JSON-RPC with Content-Length headers."""

    def __init__(self, command: list[str], cwd: str) -> None:
        self.process = subprocess.Popen(
            command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.lower() == "content-length":
                    length = int(value.strip())
            self.messages.put(json.loads(stream.read(length)))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        stream = self.process.stdin
        assert stream is not None
        stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stream.flush()

    def request(self, method: str, params: Any) -> int:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.next_id

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def receive(self, deadline: float) -> dict[str, Any] | None:
        """The next message, answering the server's own requests; None at the deadline or EOF."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                return None
            if message is None:
                raise RuntimeError("the server exited")
            if "method" in message and "id" in message:
                self.send({"id": message["id"], "result": _answer(message)})
                continue
            return message


def _answer(message: dict[str, Any]) -> Any:
    if message["method"] == "workspace/configuration":
        return [None for _ in message.get("params", {}).get("items", [])]
    return None


def diagnostics(root: str, file: str, language: str, command: list[str]) -> dict[str, Any]:
    """Open ``file`` in the server started by ``command`` and collect its diagnostics."""
    path = Path(file).resolve()
    uri = path.as_uri()
    deadline = time.monotonic() + TIMEOUT_S
    server = Server(command, root)
    try:
        init = server.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": Path(root).resolve().as_uri(),
                "workspaceFolders": [{"uri": Path(root).resolve().as_uri(), "name": "ws"}],
                "capabilities": {
                    "textDocument": {"publishDiagnostics": {}, "synchronization": {}},
                    "workspace": {"configuration": True},
                },
            },
        )
        info: dict[str, Any] = {}
        while True:
            message = server.receive(deadline)
            if message is None:
                return {"ok": False, "error": "no answer to initialize"}
            if message.get("id") == init:
                if "error" in message:
                    return {"ok": False, "error": str(message["error"])}
                info = message.get("result", {}).get("serverInfo", {}) or {}
                break
        server.notify("initialized", {})
        server.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri,
                    "languageId": language,
                    "version": 1,
                    "text": path.read_text(encoding="utf-8"),
                }
            },
        )
        found: list[dict[str, Any]] | None = None
        quiet_until = deadline
        while True:
            message = server.receive(min(deadline, quiet_until))
            if message is None:
                break
            if message.get("method") != "textDocument/publishDiagnostics":
                continue
            params = message.get("params", {})
            if params.get("uri") != uri:
                continue
            found = params.get("diagnostics", [])
            quiet_until = time.monotonic() + QUIET_S
        if found is None:
            return {"ok": False, "error": f"no diagnostics within {TIMEOUT_S:.0f} s"}
        shutdown = server.request("shutdown", None)
        end = time.monotonic() + 5
        while (message := server.receive(end)) is not None and message.get("id") != shutdown:
            pass
        server.notify("exit", None)
        name = " ".join(str(info.get(k, "")) for k in ("name", "version")).strip()
        return {
            "ok": True,
            "server": name,
            "diagnostics": [
                {
                    "line": d["range"]["start"]["line"] + 1,
                    "column": d["range"]["start"]["character"] + 1,
                    "severity": d.get("severity", 1),
                    "message": str(d.get("message", "")),
                }
                for d in found
            ],
        }
    except (OSError, RuntimeError, ValueError) as error:
        return {"ok": False, "error": f"{type(error).__name__}: {error}"}
    finally:
        if server.process.poll() is None:
            server.process.kill()
        server.process.wait()


def main(argv: list[str]) -> int:
    """``probe.py ROOT FILE LANGUAGE_ID -- SERVER ARGS...``."""
    if len(argv) < 5 or argv[3] != "--":
        print(json.dumps({"ok": False, "error": "usage: probe.py ROOT FILE LANGUAGE -- SERVER"}))
        return 2
    result = diagnostics(argv[0], argv[1], argv[2], argv[4:])
    print(json.dumps(result))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
