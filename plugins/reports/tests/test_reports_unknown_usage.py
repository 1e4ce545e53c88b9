"""Unknown usage reads as unknown in every format, never as a known zero.

Two real ``garuda eval`` runs of the command agent (whose usage is never reported) on core's
mini suite, then every format of them: the HTML page (in headless chromium), the A/B page
beside ``garuda compare``, JUnit XML, Markdown and report.json.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from browser import Browser

from garuda_evals.report.compare import load_report
from garuda_evals.testing import run_garuda
from garuda_evals_reports.junit import junit_xml
from garuda_evals_reports.markdown import markdown

MINI = Path(__file__).resolve().parents[3] / "core" / "tests" / "suite_data" / "mini"
SOLVE = 'sed -i "s/a - b/a + b/" src/calc.py 2>/dev/null; true'
INCOMPLETE = "≥ $0.000 (incomplete)"
# a dollar amount shown as a plain, known figure (no "≥ " before it)
PLAIN_DOLLARS = re.compile(r"(?<!≥ )[+\-−±]?\$\d")


def _run(root: Path, command: str) -> Path:
    root.mkdir()
    done = run_garuda(
        "eval", "--agent", "command", "--agent-command", command, "-s", str(MINI),
        "--executor", "host", "--repeat", "2", cwd=root,
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr  # greet fails in both arms
    (run_dir,) = (root / ".garuda" / "evals").iterdir()
    return run_dir


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Arm A solves the add task, arm B changes nothing; neither reports usage."""
    root = tmp_path_factory.mktemp("unknown")
    return _run(root / "a", SOLVE), _run(root / "b", "true")


def _html(args: list[str], target: Path) -> Path:
    done = run_garuda("report", *args, "--format", "html", "-o", str(target), cwd=target.parent)
    assert done.returncode == 0, done.stderr
    return target


def _chart_values(browser: Browser) -> dict[str, list[str]]:
    return browser.evaluate(
        "Object.fromEntries([...document.querySelectorAll('svg.chart')].map(svg => ["
        "svg.querySelector('title').textContent,"
        "[...svg.querySelectorAll('text.chart-value')].map(t => t.textContent)]))"
    )


def test_the_page_never_shows_unknown_usage_as_zero(
    runs: tuple[Path, Path], browser: Browser, tmp_path: Path
) -> None:
    page = _html([str(runs[0])], tmp_path / "page.html")
    log = browser.load(page)
    assert log.errors == []
    charts = _chart_values(browser)
    assert charts["cost per run (mean)"] == [INCOMPLETE, INCOMPLETE]
    assert charts["tokens per run (mean)"] == ["?", "?"]
    assert charts["steps per run (mean)"] == ["?", "?"]
    summaries = browser.evaluate(
        "[...document.querySelectorAll('details.run > summary')].map(s => s.textContent)"
    )
    assert len(summaries) == 4
    for summary in summaries:
        assert "? steps · tok ? · " + INCOMPLETE in summary, summary
        assert "tok ? tok" not in summary
    cells = browser.evaluate(
        "[...document.querySelectorAll('table.runs tr[data-run]')]"
        ".map(r => [...r.children].map(c => c.textContent.trim()))"
    )
    assert [row[2:5] for row in cells] == [["?", "tok ?", INCOMPLETE]] * 4
    body = browser.evaluate("document.body.textContent")
    assert not PLAIN_DOLLARS.search(body), PLAIN_DOLLARS.search(body)


def test_the_ab_page_shows_unknown_as_compare_does(
    runs: tuple[Path, Path], browser: Browser, tmp_path: Path
) -> None:
    a, b = (str(run) for run in runs)
    page = _html([a, b], tmp_path / "ab.html")
    browser.load(page)
    rows = browser.evaluate(
        "[...document.querySelectorAll('table.pairs tr[data-task]')]"
        ".map(r => [...r.children].map(c => c.textContent.trim()))"
    )
    by_task = {row[0]: row for row in rows}
    assert set(by_task) == {"mini/add", "mini/greet"}
    for row in rows:
        assert row[4:7] == ["?", "?", "?"], row  # steps, tokens, cost
    charts = _chart_values(browser)
    assert charts["cost per run (mean)"] == [f"{arm} {INCOMPLETE}" for arm in "ABAB"]
    assert charts["tokens per run (mean)"] == ["A ?", "B ?", "A ?", "B ?"]
    body = browser.evaluate("document.body.textContent")
    assert not PLAIN_DOLLARS.search(body), PLAIN_DOLLARS.search(body)
    compared = run_garuda("compare", a, b, cwd=tmp_path)
    assert compared.returncode == 0, compared.stderr
    lines = compared.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("task "))
    for line in lines[header + 1 : header + 3]:
        cells = line.split()
        assert cells[0] in by_task and cells[-4:-1] == ["?", "?", "?"], line


def test_junit_markdown_and_json_say_unknown(runs: tuple[Path, Path]) -> None:
    report = load_report(runs[0])
    text = junit_xml(report)
    outputs = re.findall(r"<system-out>(.*?)</system-out>", text, re.S)
    assert len(outputs) == 4
    for output in outputs:
        assert output.startswith(f"steps: ?, tokens: ?\ncost: {INCOMPLETE}"), output
    table = markdown(report)
    rows = [line for line in table.splitlines() if line.startswith("| mini/")]
    assert len(rows) == 4
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split(" | ")]
        assert cells[2:5] == ["?", "tok ?", INCOMPLETE], cells
    assert "tok ? (some usage unreported)" in table and "0 tokens" not in table
    saved = json.loads((runs[0] / "report.json").read_text())
    summary = saved["summary"]
    assert summary["tokens"] is None and not summary["tokensKnown"]
    assert summary["costIncomplete"] and summary["steps"] == 0 and not summary["stepsKnown"]
    for task in saved["tasks"]:
        assert task["meanTokens"] is None and task["meanSteps"] is None
        assert task["costIncomplete"]
    for row in saved["results"]:
        assert row["steps"] is None and not row["usage"]["tokensKnown"]
        assert row["usage"]["costIncomplete"]
