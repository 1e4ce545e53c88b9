"""Live output: a line per event, and on a terminal a progress line that rewrites itself."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from garuda_evals.models.result import TaskResult
from garuda_evals.report import units


class LiveOutput:
    """Prints ``[suite/task#n] message`` lines; on a TTY keeps ``[done/total] ...`` at the bottom."""

    def __init__(self, total: int, *, stream: TextIO | None = None, repeats: bool = False) -> None:
        self.stream = stream or sys.stderr
        self.total = total
        self.done = 0
        self.passed = 0
        self.repeats = repeats
        self.started = time.monotonic()
        self.tty = self.stream.isatty()
        self._progress_shown = False

    def _clear(self) -> None:
        if self._progress_shown:
            self.stream.write("\r\x1b[2K")
            self._progress_shown = False

    def _progress(self) -> None:
        if not self.tty:
            return
        elapsed = units.seconds((time.monotonic() - self.started) * 1000)
        self.stream.write(f"[{self.done}/{self.total}] {self.passed} passed · {elapsed}")
        self.stream.flush()
        self._progress_shown = True

    def tag(self, suite: str, task: str, repeat: int) -> str:
        """``suite/task`` with ``#n`` when the run has repeats."""
        return f"{suite}/{task}" + (f"#{repeat}" if self.repeats else "")

    def line(self, text: str) -> None:
        """Print one line above the progress line."""
        self._clear()
        self.stream.write(text + "\n")
        self._progress()
        self.stream.flush()

    def event(self, kind: str, tag: str, message: str) -> None:
        """A live event (start, tool, retry, notice)."""
        self.line(f"[{tag}] {kind}: {message}" if kind != "start" else f"[{tag}] start: {message}")

    def result(self, tag: str, result: TaskResult) -> None:
        """A finished run, counted in the progress line."""
        self.done += 1
        self.passed += result.passed
        summary = (
            f"{result.status.value} · {units.counted(result.steps, 'step')} · "
            f"{units.usage_tokens(result.usage)} · "
            f"{units.cost(result.usage.cost_usd, result.usage.cost_incomplete)} · "
            f"{units.seconds(result.duration_ms)}"
        )
        reason = f" · {result.failure}" if result.failure else ""
        self.line(f"[{tag}] {summary}{reason[:160]}")

    def finish(self) -> None:
        """Remove the progress line."""
        self._clear()
        self.stream.flush()
