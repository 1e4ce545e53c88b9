"""Reapers forked from one long-lived server instead of a Python start per command.

Starting ``python -I -S`` costs about 8 ms of CPU, as much again as a small check spends
outside pytest. The harness starts ``reaper.serve`` once (per process that uses it) and asks
it over a socket for each command; the server forks a reaper that does exactly what a
started one does (``reaper.reap``: a child subreaper, every descendant killed and reaped
when the command ends or when it gets SIGTERM), in a session of its own. The reaper writes
its pid, then the command's wait status, to a pipe: the pipe's end is its exit.

Where the server cannot be used (it failed to start or died, the request is too large, a
descriptor has to be passed on) ``open_reaped`` gives None and the caller starts a reaper
the old way.
"""

from __future__ import annotations

import array
import asyncio
import atexit
import contextlib
import marshal
import os
import socket
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path

import anyio

from garuda_evals.executors import reaper

READ_BYTES = 64 * 1024
START_LIMIT_S = 30.0
"""How long a forked reaper may take to say its pid (a stopped server is given up on)."""


async def _read(fd: int) -> bytes:
    """Up to READ_BYTES from the non-blocking ``fd`` (empty at its end)."""
    while True:
        try:
            return os.read(fd, READ_BYTES)
        except BlockingIOError:
            await anyio.wait_readable(fd)


class _Output:
    """The command's output as the chunks ``async for`` gives, until its end."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # another event loop (trio)
            while chunk := await _read(self.fd):
                yield chunk
            return
        # asyncio watches a pipe once for all its chunks; waiting for each chunk apart
        # costs two epoll changes and a wake-up more per chunk (a check writes dozens).
        reader = asyncio.StreamReader(limit=READ_BYTES, loop=loop)
        pipe = os.fdopen(os.dup(self.fd), "rb", buffering=0)
        transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader, loop=loop), pipe
        )
        try:
            while chunk := await reader.read(READ_BYTES):
                yield chunk
        finally:
            transport.close()


class ReapedProcess:
    """A command under a forked reaper: what ``run_in_group`` uses of a process."""

    def __init__(self, pid: int, output: int, status: int, read: bytes) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.stdout = _Output(output)
        self._status = status
        self._read = read

    async def wait(self) -> int:
        """Wait until the reaper has exited; the command's code (``-N`` for signal N; a
        reaper killed before it could tell gives its own death, ``-9``)."""
        while self.returncode is None:
            chunk = await _read(self._status)
            if chunk:
                self._read += chunk
                continue
            text = self._read.decode("ascii", "replace").strip()
            status = int(text) if text.lstrip("-").isdigit() else None
            self.returncode = -9 if status is None else os.waitstatus_to_exitcode(status)
        return self.returncode

    async def aclose(self) -> None:
        """Close the pipes (after ``wait``)."""
        for fd in (self.stdout.fd, self._status):
            with contextlib.suppress(OSError):
                os.close(fd)


class _Server:
    """The harness's end of one ``reaper.serve`` process."""

    def __init__(self) -> None:
        self.owner = os.getpid()
        self.lock = threading.Lock()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        boot = (
            f"import sys; sys.path.insert(0, {str(Path(reaper.__file__).parent)!r}); "
            f"import reaper; reaper.serve({theirs.fileno()})"
        )
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", boot],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=[theirs.fileno()],
                start_new_session=True,  # Ctrl-C at the terminal is the harness's to handle
            )
        finally:
            theirs.close()
        self.socket = ours
        atexit.register(self.close)

    def send(self, request: bytes, fds: list[int]) -> bool:
        """Hand one request over; False when the server is gone."""
        with self.lock:
            try:
                rights = array.array("i", fds).tobytes()
                self.socket.sendmsg([request], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, rights)])
            except OSError:
                return False
        return True

    def close(self) -> None:
        """Close the socket: the server sees its end, waits for its reapers and exits."""
        atexit.unregister(self.close)
        self.socket.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)


_server: _Server | None = None
_failed_in: int | None = None
_starting = threading.Lock()


def _current() -> _Server | None:
    """This process's server, started on first use (None where it cannot start)."""
    global _server, _failed_in
    with _starting:
        pid = os.getpid()
        if _server is not None and _server.owner == pid:
            return _server
        if _failed_in == pid:
            return None
        try:
            _server = _Server()
        except OSError:
            _failed_in = pid
            return None
        return _server


def stop_server() -> None:
    """Stop this process's server and wait for it (and so for every reaper it forked: their
    CPU time is then counted among this process's children). The next command starts one."""
    global _server
    if _server is not None and _server.owner == os.getpid():
        _server.close()
    _server = None


def _forget(server: _Server) -> None:
    global _server, _failed_in
    if _server is server:
        _server, _failed_in = None, os.getpid()
        server.process.kill()
        server.close()


async def open_reaped(
    argv: Sequence[str], *, cwd: Path, env: Mapping[str, str]
) -> ReapedProcess | None:
    """Start ``argv`` under a reaper forked by the server; None when the server cannot
    take it (the caller starts a reaper itself). Raises OSError when ``cwd`` cannot be
    entered, as starting a process there would."""
    request = marshal.dumps(
        (
            [os.fsencode(arg) for arg in argv],
            os.fsencode(cwd),
            {os.fsencode(key): os.fsencode(value) for key, value in env.items()},
        )
    )
    server = _current() if len(request) <= reaper.REQUEST_LIMIT else None
    if server is None:
        return None
    output_read, output_write = os.pipe()
    status_read, status_write = os.pipe()
    try:
        sent = server.send(request, [output_write, status_write])
    finally:
        os.close(output_write)
        os.close(status_write)
    os.set_blocking(output_read, False)
    os.set_blocking(status_read, False)
    started = b""
    # Shielded: once the reaper runs, only its pid lets the caller stop the command.
    with anyio.CancelScope(shield=True), anyio.move_on_after(START_LIMIT_S):
        while sent and b"\n" not in started:
            chunk = await _read(status_read)
            if not chunk:
                break
            started += chunk
    first, _, rest = started.partition(b"\n")
    if not first.isdigit():
        os.close(output_read)
        os.close(status_read)
        if first.startswith(b"!") and first[1:].isdigit():
            number = int(first[1:])
            raise OSError(number, os.strerror(number), str(cwd))
        _forget(server)
        return None
    return ReapedProcess(int(first), output_read, status_read, rest)
