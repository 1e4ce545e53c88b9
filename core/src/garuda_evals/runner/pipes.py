"""Output that survives a closed pipe: ``garuda eval … | head`` finishes and writes its report."""

from __future__ import annotations

import contextlib
import errno
import io
import os
from typing import TextIO, cast


class PipeSafe(io.TextIOBase):
    """Writes to ``stream`` until its reader goes away, then drops the rest silently."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.gone = False

    def _lost(self, error: OSError) -> None:
        if not isinstance(error, BrokenPipeError) and error.errno != errno.EPIPE:
            raise error
        self.gone = True
        # The interpreter flushes the real stream at exit: point its descriptor at
        # /dev/null so that flush does not fail again.
        with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.stream.fileno())
            os.close(devnull)

    def write(self, text: str) -> int:
        """Write ``text``; after the reader left, do nothing."""
        if self.gone:
            return len(text)
        try:
            self.stream.write(text)
        except OSError as error:
            self._lost(error)
        return len(text)

    def flush(self) -> None:
        """Flush unless the reader left."""
        if self.gone:
            return
        try:
            self.stream.flush()
        except OSError as error:
            self._lost(error)

    def isatty(self) -> bool:
        """Whether the wrapped stream is a terminal."""
        return not self.gone and self.stream.isatty()


def pipe_safe(stream: TextIO) -> TextIO:
    """``stream`` wrapped so a closed pipe never raises (already wrapped ones are kept)."""
    if isinstance(stream, PipeSafe):
        return cast(TextIO, stream)
    return cast(TextIO, PipeSafe(stream))
