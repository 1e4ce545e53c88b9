"""The HTML report in a real headless chromium: no errors, no network, rows, transcripts, diffs.

An agent's words are untrusted: the sample run's transcripts, reasons and check output carry a
``<script>`` and an ``<img onerror>``; they must show as text and never run.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser import Browser
from sample import EXPECTED_GRID_ORDER, MARKER, build_run

from garuda_evals.models.result import Status
from garuda_evals.stats.intervals import wilson
from garuda_evals.testing import run_garuda

OTHER_PLAN = {
    "beta": (Status.PASS, Status.FAIL, Status.PASS),
    "alpha": (Status.PASS, Status.PASS, Status.PASS),
    "gamma": (Status.FAIL, Status.FAIL, Status.FAIL),
    "delta": (Status.PASS, Status.PASS, Status.PASS),
    "epsilon": (Status.PASS, Status.ERR, Status.PASS),
}


@pytest.fixture(scope="module")
def page(sample_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``garuda report RUN --format html -o page.html``, through the installed CLI."""
    target = tmp_path_factory.mktemp("html") / "page.html"
    done = run_garuda(
        "report", str(sample_run), "--format", "html", "-o", str(target), cwd=target.parent
    )
    assert done.returncode == 0, done.stderr
    return target


@pytest.fixture(scope="module")
def ab_page(sample_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``garuda report A B --format html -o ab.html``."""
    root = tmp_path_factory.mktemp("ab")
    other = build_run(root, run_id="20261201-130000-cd34", plan=OTHER_PLAN)
    target = root / "ab.html"
    done = run_garuda(
        "report", str(sample_run), str(other), "--format", "html", "-o", str(target), cwd=root
    )
    assert done.returncode == 0, done.stderr
    return target


def _texts(browser: Browser, selector: str) -> list[str]:
    return browser.evaluate(
        f"[...document.querySelectorAll({selector!r})].map(e => e.textContent.trim())"
    )


def test_the_page_loads_with_no_console_error_and_no_request_but_itself(
    browser: Browser, page: Path
) -> None:
    log = browser.load(page)
    assert log.errors == []
    assert log.requests == [page.resolve().as_uri()]


def test_script_from_a_transcript_shows_as_text_and_never_runs(
    browser: Browser, page: Path
) -> None:
    browser.load(page)
    assert browser.evaluate("document.querySelectorAll('script, img, iframe, object').length") == 0
    assert browser.evaluate("window.pwned === undefined")
    assert browser.evaluate("document.title") == "garuda eval 20261201-120000-ab12"
    body = browser.evaluate("document.body.textContent")
    assert '<script>document.title="pwned";window.pwned=1</script>' in body
    assert body.count(MARKER) > 15


def test_the_grid_puts_disagreements_first_and_marks_suspicious_runs(
    browser: Browser, page: Path
) -> None:
    browser.load(page)
    order = browser.evaluate(
        "[...document.querySelectorAll('table.grid tr[data-task]')].map(r => r.dataset.task)"
    )
    assert order == EXPECTED_GRID_ORDER
    alpha = _texts(browser, "table.grid tr[data-task='py/alpha'] td .status")
    assert alpha == ["PASS", "FAIL", "PASS"]
    assert _texts(browser, "table.grid tr[data-task='py/beta'] td .suspicious") == ["⚠"]
    assert (
        browser.evaluate(
            "document.querySelector('table.grid tr[data-task=\"py/alpha\"]').className"
        )
        == "disagree"
    )
    assert len(_texts(browser, "table.runs tr[data-run]")) == 15


def test_both_rates_and_the_charts_are_on_the_page(browser: Browser, page: Path) -> None:
    browser.load(page)
    assert _texts(browser, "#rate-scored .big") == ["67%"]  # 8 of 12 scored runs
    assert _texts(browser, "#rate-attempted .big") == ["53%"]  # 8 of 15 attempted runs
    for label, total in (("scored", 12), ("attempted", 15)):
        low, high = wilson(8, total)
        expected = f"8/{total} runs · 95% CI {low * 100:.0f}–{high * 100:.0f}%"
        assert _texts(browser, f"#rate-{label} .sub") == [expected]
    titles = _texts(browser, "svg.chart > title")
    assert titles == [
        "steps per run (mean)",
        "tokens per run (mean)",
        "cost per run (mean)",
        "time per run (mean)",
    ]
    assert browser.evaluate("document.querySelectorAll('svg.chart rect.bar').length") == 20


def test_the_header_names_the_agent_once_then_its_settings(browser: Browser, page: Path) -> None:
    browser.load(page)
    meta = _texts(browser, "p.meta")[0]
    assert " · agent garuda (model=fake/model) · executor bwrap · " in meta
    assert "agent=" not in meta


def test_a_failed_run_shows_its_reason_check_output_and_transcript(
    browser: Browser, page: Path
) -> None:
    browser.load(page)
    run = "#run-5"  # py/alpha #2, the failing repeat
    summary = _texts(browser, f"{run} > summary")[0]
    assert summary.startswith("FAIL py/alpha #2")
    assert _texts(browser, f"{run} .failure")[0].startswith("why: 2 of 5 tests failed")
    assert f"{MARKER}alpha-2" in _texts(browser, f"{run} .check-output")[0]
    heads = _texts(
        browser, f"{run} .transcript .entry > details > summary, {run} .transcript .entry > div"
    )
    assert heads[:2] == [
        "start: model fake/model, 2 tools, at most 30 steps",
        "step 1: request with 1 new message(s)",
    ]
    assert "tool call read_file" in heads and "tool result read_file" in heads
    assert any(head.startswith("notice: step limit is near") for head in heads)
    error_run = _texts(browser, "#run-13 .transcript .entry.retry > details > summary")
    assert error_run == ["step 1: retry (attempt 1, retry in 0.5s)"]
    assert _texts(browser, "#run-4 .transcript .entry.bad > details > summary") == [
        "line 8 is not JSON",
        "line 9 is not JSON",
    ]


def test_the_final_change_is_a_highlighted_diff(browser: Browser, page: Path) -> None:
    browser.load(page)
    added = _texts(browser, "#run-4 .change .diff .gi")
    removed = _texts(browser, "#run-4 .change .diff .gd")
    assert added == ["+++ b/calc.py", "+    return a + b"]
    assert removed == ["--- a/calc.py", "-    return a - b"]
    assert f"{MARKER}alpha-1" in _texts(browser, "#run-4 .change .diff")[0]
    assert _texts(browser, "#run-13 .change p") == ["no change recorded"]


def test_the_ab_page_shows_paired_differences(browser: Browser, ab_page: Path) -> None:
    log = browser.load(ab_page)
    assert log.errors == []
    assert browser.evaluate("document.querySelectorAll('script, img').length") == 0
    rows = browser.evaluate(
        "[...document.querySelectorAll('table.pairs tr[data-task]')]"
        ".map(r => [...r.children].map(c => c.textContent.trim()))"
    )
    by_task = {row[0]: row for row in rows}
    two, three, none = "2/3 67% (21–94%)", "3/3 100% (44–100%)", "0/3 0% (0–56%)"
    assert by_task["py/alpha"][1:4] == [two, three, "+33 pp"]
    assert by_task["py/beta"][1:4] == [three, two, "−33 pp"]
    assert by_task["py/gamma"][1:4] == [none, none, "±0 pp"]
    assert [row[0] for row in rows][:3] == ["py/beta", "py/alpha", "py/epsilon"]
    assert _texts(browser, "#a-rate-scored .big") == ["67%"]
    paired = _texts(browser, "#paired pre")[0]
    assert "verdict: " in paired and "95% CI (paired bootstrap)" in paired
    assert browser.evaluate("document.querySelectorAll('svg.chart rect.bar-1').length") == 20


def test_a_report_cannot_pull_files_from_outside_its_run_folder(tmp_path: Path) -> None:
    """A report.json from elsewhere naming /etc/passwd or ../secret shows a note, not the file."""
    import json

    from garuda_evals.report.compare import load_report
    from garuda_evals_reports.html import render_report

    run = build_run(tmp_path, hostile=False, plan={"alpha": (Status.PASS,)})
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT", encoding="utf-8")
    (run / "inside.jsonl").symlink_to(secret)
    data = json.loads((run / "report.json").read_text(encoding="utf-8"))
    for transcript in (str(secret), "../../../secret.txt", str(run / "inside.jsonl")):
        data["results"][0]["transcript"] = transcript
        (run / "report.json").write_text(json.dumps(data), encoding="utf-8")
        page = render_report(load_report(run), run)
        assert "TOP-SECRET-CONTENT" not in page
        assert "transcript not found" in page
