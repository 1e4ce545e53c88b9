"""Markdown: read as rendered text (markdown-it renders it; the test reads the table's cells)."""

from __future__ import annotations

import os
from html.parser import HTMLParser
from pathlib import Path

from markdown_it import MarkdownIt

from garuda_evals.report.compare import load_report
from garuda_evals.testing import run_garuda
from garuda_evals_reports.markdown import markdown

MINI = Path(__file__).resolve().parents[3] / "core" / "tests" / "suite_data" / "mini"


class _Tables(HTMLParser):
    """Rendered tables as rows of cell texts; counts raw elements an agent could inject."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None
        self.injected: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = []
        elif tag in ("script", "img"):
            self.injected.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def rendered(text: str) -> _Tables:
    """The Markdown rendered to HTML as GitHub would (tables on), then read back as text."""
    parser = _Tables()
    parser.feed(MarkdownIt("commonmark").enable("table").render(text))
    return parser


def test_the_table_reads_one_row_per_run_with_reasons_in_their_cell(sample_run: Path) -> None:
    report = load_report(sample_run)
    text = markdown(report)
    assert "8/12 scored runs passed (67%) · 8/15 of all attempted runs (53%)" in text
    assert "95% CI scored " in text
    tables = rendered(text)
    header, *rows = tables.rows
    assert header == ["run", "result", "steps", "tokens", "cost", "time", "failure"]
    assert len(rows) == 15 and all(len(row) == 7 for row in rows)
    by_run = {row[0]: row for row in rows}
    assert by_run["py/alpha #2"][1] == "FAIL"
    reason = by_run["py/alpha #2"][6]
    assert reason.startswith("2 of 5 tests failed: test_add | expected 3, got -1")
    assert "<script>" in reason  # shown as text
    assert by_run["py/beta #2"][1] == "PASS? ⚠"
    assert by_run["py/epsilon #1"][1] == "ERR"
    assert tables.injected == []


def test_garuda_eval_markdown_appends_to_the_step_summary(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    env = {**os.environ, "GITHUB_STEP_SUMMARY": str(summary)}
    for _ in range(2):
        done = run_garuda(
            "eval",
            "--agent",
            "oracle",
            "-s",
            str(MINI),
            "--executor",
            "host",
            "--report-format",
            "markdown",
            cwd=tmp_path,
            env=env,
        )
        assert done.returncode == 0, done.stderr
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("earlier step\n")
    assert text.count("### garuda eval") == 2
    rows = rendered(text).rows
    assert [row[:2] for row in rows if row[0].startswith("mini/")] == [
        ["mini/add", "PASS"],
        ["mini/greet", "PASS"],
    ] * 2
    assert done.stdout in text


def test_an_unwritable_step_summary_is_one_warning(tmp_path: Path) -> None:
    env = {**os.environ, "GITHUB_STEP_SUMMARY": str(tmp_path / "missing" / "summary.md")}
    done = run_garuda(
        "eval",
        "--agent",
        "oracle",
        "-s",
        str(MINI),
        "--executor",
        "host",
        "--report-format",
        "markdown",
        cwd=tmp_path,
        env=env,
    )
    assert done.returncode == 0
    assert "garuda: warning: $GITHUB_STEP_SUMMARY" in done.stderr
    assert "Traceback" not in done.stderr
