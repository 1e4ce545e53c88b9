"""Captured command output with a size cap that keeps the head and the tail."""

from __future__ import annotations


class CappedOutput:
    """Collects bytes up to ``limit``: the first half and the last half, with a marker between."""

    def __init__(self, limit: int) -> None:
        self._limit = max(limit, 64)
        self._head = bytearray()
        self._tail = bytearray()
        self._dropped = 0

    def feed(self, chunk: bytes) -> None:
        """Add a chunk of output."""
        half = self._limit // 2
        room = half - len(self._head)
        if room > 0:
            self._head += chunk[:room]
            chunk = chunk[room:]
        if not chunk:
            return
        self._tail += chunk
        if len(self._tail) > half:
            self._dropped += len(self._tail) - half
            del self._tail[: len(self._tail) - half]

    @property
    def truncated(self) -> bool:
        """True when bytes were dropped."""
        return self._dropped > 0

    def text(self) -> str:
        """The kept output as text (invalid UTF-8 replaced)."""
        middle = f"\n[... {self._dropped} bytes cut ...]\n".encode() if self._dropped else b""
        return bytes(self._head + middle + self._tail).decode("utf-8", errors="replace")
