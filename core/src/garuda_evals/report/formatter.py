"""The report-formatter contract."""

from __future__ import annotations

from abc import ABC, abstractmethod

from garuda_evals.models.report import Report


class ReportFormatter(ABC):
    """Turns a finished report into text for the terminal (``--report-format NAME``)."""

    name: str

    @abstractmethod
    def render(self, report: Report) -> str:
        """The whole report as text."""
