"""The JSON formatter: report.json's content."""

from __future__ import annotations

import json

from garuda_evals.models.report import Report
from garuda_evals.report.formatter import ReportFormatter


class JsonFormatter(ReportFormatter):
    """The report as indented JSON with camelCase keys."""

    name = "json"

    def render(self, report: Report) -> str:
        """Indented JSON."""
        return json.dumps(report.to_json_dict(), indent=2, ensure_ascii=False) + "\n"
