"""Removing a folder an agent or a check wrote into, however it is shaped.

``shutil.rmtree`` recurses once per folder level, so on Python 3.11 a tree a thousand folders
deep (a line of shell for an agent) raises ``RecursionError``, which ``ignore_errors`` does
not cover: the whole run would stop with a traceback. What ``rmtree`` leaves is removed by
``rm -rf``, which walks any depth.

Inside ``removing_in_background()`` (the runs of one ``garuda eval``), ``remove_soon`` hands
a run's scratch folders to one worker thread, so the next run goes on while they are removed
(a folder's removal waits on the disk for tens of milliseconds, a tenth of a quick check);
the block ends once every folder handed over is gone.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import subprocess
import threading
from collections.abc import AsyncIterator, Callable
from contextvars import ContextVar
from pathlib import Path

import anyio

BACKLOG = 8
"""Folders waiting for the worker at most; past it ``remove_soon`` removes at once."""


def _writable_then_retry(function: Callable[[str], object], failed: str, _: object) -> None:
    os.chmod(os.path.dirname(failed), 0o700)
    function(failed)


def remove_tree(path: Path) -> None:
    """Remove ``path`` and everything in it, folders left read-only included; never raises
    (what cannot be removed stays)."""
    if not os.path.lexists(path):
        return
    with contextlib.suppress(OSError, RecursionError):
        shutil.rmtree(path, onerror=_writable_then_retry)
    if os.path.lexists(path):
        for argv in (["chmod", "-R", "u+rwx", "--", str(path)], ["rm", "-rf", "--", str(path)]):
            with contextlib.suppress(OSError):
                subprocess.run(argv, capture_output=True, check=False)


class _Remover:
    """One worker thread removing the folders handed to it, in order."""

    def __init__(self) -> None:
        self._queue: queue.Queue[Path | None] = queue.Queue(maxsize=BACKLOG)
        self._thread = threading.Thread(target=self._work, name="garuda-removal", daemon=True)
        self._thread.start()

    def _work(self) -> None:
        while (path := self._queue.get()) is not None:
            remove_tree(path)

    def put(self, path: Path) -> bool:
        """Hand ``path`` over; False when the backlog is full (nothing handed over)."""
        try:
            self._queue.put_nowait(path)
        except queue.Full:
            return False
        return True

    def close(self) -> None:
        """Wait until every folder handed over is removed, and end the thread."""
        self._queue.put(None)
        self._thread.join()


_REMOVER: ContextVar[_Remover | None] = ContextVar("garuda_remover", default=None)


def remove_soon(path: Path) -> None:
    """``remove_tree(path)`` in the background inside ``removing_in_background()``, else
    (or when the backlog is full) at once; never blocks on the background worker."""
    remover = _REMOVER.get()
    if remover is None or not remover.put(path):
        remove_tree(path)


@contextlib.asynccontextmanager
async def removing_in_background() -> AsyncIterator[None]:
    """Within the block, ``remove_soon`` removes in a worker thread; on leaving it (Ctrl-C
    too) every folder handed over is removed before it returns."""
    remover = _Remover()
    token = _REMOVER.set(remover)
    try:
        yield
    finally:
        _REMOVER.reset(token)
        with anyio.CancelScope(shield=True):
            await anyio.to_thread.run_sync(remover.close)
