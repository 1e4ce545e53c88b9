"""The report-formatter contract."""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import TextIO

from garuda_evals.errors import UsageError
from garuda_evals.models.report import Report


class ReportFormatter(ABC):
    """Turns a finished report into text (``--report-format NAME``, ``garuda report --format``).

    Only ``render`` is required. A formatter that reads the run folder (transcripts, diffs)
    overrides ``render_run``; one with an A/B page overrides ``render_pair``; one that writes
    files of its own after ``garuda eval`` (report.html) overrides ``publish``.
    """

    name: str

    @abstractmethod
    def render(self, report: Report) -> str:
        """The whole report as text."""

    def render_run(self, report: Report, run_dir: Path | None) -> str:
        """The report with its run folder at hand (``None`` when unknown); by default ``render``."""
        return self.render(report)

    def render_pair(
        self, a: Report, b: Report, run_dirs: tuple[Path | None, Path | None] = (None, None)
    ) -> str:
        """Two runs as A/B; formatters without an A/B form refuse with a usage error."""
        raise UsageError(f"--format {self.name}: this format has no A/B form for two runs")

    def publish(self, report: Report, run_dir: Path, *, stdout: TextIO, stderr: TextIO) -> None:
        """What ``garuda eval`` does with the finished report: by default print it to stdout."""
        stdout.write(self.render_run(report, run_dir))
