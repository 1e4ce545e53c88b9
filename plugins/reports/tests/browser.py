"""A small Chrome DevTools Protocol client over ``--remote-debugging-pipe`` (no extra packages).

It starts Debian's ``chromium`` headless, opens one page, records console messages, uncaught
exceptions, log entries and network requests, evaluates expressions and takes screenshots.
"""

from __future__ import annotations

import base64
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

WAIT_S = 120.0  # a guard against a hung browser, not a measure of speed


def chromium_path() -> str | None:
    """The chromium executable, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


@dataclass
class PageLog:
    """What a page did while it loaded: console errors, exceptions and requests."""

    errors: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)


class Browser:
    """One headless chromium and one page (a target attached in flat session mode)."""

    def __init__(self, executable: str) -> None:
        self.profile = Path(tempfile.mkdtemp(prefix="reports-chromium-"))
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def wire() -> None:
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        args = [
            executable,
            "--headless",
            "--disable-gpu",
            "--no-first-run",
            "--no-default-browser-check",
            "--remote-debugging-pipe",
            f"--user-data-dir={self.profile}",
            "about:blank",
        ]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")
        self.process = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire,
            pass_fds=(3, 4),
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._next_id = 0
        self._replies: dict[int, queue.Queue[dict[str, Any]]] = {}
        self._events: queue.Queue[dict[str, Any]] = queue.Queue()
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable", session=True)

    def _read(self) -> None:
        buffer = b""
        while True:
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message:
                    self._replies[message["id"]].put(message)
                else:
                    self._events.put(message)

    def call(self, method: str, *, session: bool = False, **params: Any) -> dict[str, Any]:
        """Send one command and wait for its reply; a protocol error raises."""
        with self._lock:
            self._next_id += 1
            number = self._next_id
            self._replies[number] = queue.Queue()
        message: dict[str, Any] = {"id": number, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        reply = self._replies[number].get(timeout=WAIT_S)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        result: dict[str, Any] = reply.get("result", {})
        return result

    def load(self, path: Path) -> PageLog:
        """Open a file and wait for its load event; return what happened on the way."""
        while not self._events.empty():
            self._events.get_nowait()
        self.call("Page.navigate", session=True, url=path.resolve().as_uri())
        log = PageLog()
        while True:
            event = self._events.get(timeout=WAIT_S)
            method, params = event.get("method"), event.get("params", {})
            if method == "Page.loadEventFired":
                break
            if method == "Runtime.consoleAPICalled":
                text = " ".join(
                    str(a.get("value", a.get("description", ""))) for a in params["args"]
                )
                log.console.append(f"{params['type']}: {text}")
                if params["type"] in ("error", "assert"):
                    log.errors.append(text)
            elif method == "Runtime.exceptionThrown":
                log.errors.append(json.dumps(params["exceptionDetails"])[:500])
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                log.errors.append(params["entry"]["text"])
            elif method == "Network.requestWillBeSent":
                log.requests.append(params["request"]["url"])
        return log

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (the test's probe, not the page's)."""
        reply = self.call(
            "Runtime.evaluate", session=True, expression=expression, returnByValue=True
        )
        if "exceptionDetails" in reply:
            raise RuntimeError(f"{expression}: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def screenshot(
        self, target: Path, width: int = 1200, max_height: int = 2400, top: int = 0
    ) -> None:
        """A PNG of ``max_height`` pixels of the page from ``top``, at ``width``."""
        self.call(
            "Emulation.setDeviceMetricsOverride",
            session=True,
            width=width,
            height=800,
            deviceScaleFactor=1,
            mobile=False,
        )
        full = int(self.evaluate("document.documentElement.scrollHeight"))
        height = min(full - top, max_height)
        self.call(
            "Emulation.setDeviceMetricsOverride",
            session=True,
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=False,
        )
        clip = {"x": 0, "y": top, "width": width, "height": height, "scale": 1}
        data = self.call(
            "Page.captureScreenshot",
            session=True,
            format="png",
            clip=clip,
            captureBeyondViewport=True,
        )["data"]
        target.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        """Close the browser and remove its profile."""
        with suppress(RuntimeError, queue.Empty, OSError):
            self.call("Browser.close")
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        shutil.rmtree(self.profile, ignore_errors=True)


@contextmanager
def open_browser(executable: str) -> Iterator[Browser]:
    """A browser for the block; closed afterwards."""
    browser = Browser(executable)
    try:
        yield browser
    finally:
        browser.close()
