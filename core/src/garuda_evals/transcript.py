"""A JSON-lines transcript: one event per line, flushed as it is written."""

from __future__ import annotations

import json
import time
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO


class Transcript:
    """Appends ``{"t": ms, "type": kind, ...}`` lines to ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: TextIO | None = None

    def __enter__(self) -> Transcript:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.path.open("a", encoding="utf-8")
        return self

    def write(self, kind: str, data: dict[str, Any]) -> None:
        """Append one event."""
        assert self._file is not None, "use Transcript as a context manager"
        line = {"t": int(time.time() * 1000), "type": kind, **data}
        self._file.write(json.dumps(line, ensure_ascii=False) + "\n")
        self._file.flush()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
