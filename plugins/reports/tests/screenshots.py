"""Screenshots of the HTML report and the A/B page for docs/ (not a test).

Usage: python plugins/reports/tests/screenshots.py docs/images
Builds two sample runs, renders them through ``garuda report --format html``, and saves
report.png (the top of the page), report-run.png (a failed run opened: reason, diff,
transcript) and report-ab.png (the A/B page) in the given folder.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from browser import chromium_path, open_browser
from sample import build_run
from test_reports_html import OTHER_PLAN

GARUDA = str(Path(sys.executable).parent / "garuda")
OPEN_RUN = """
const run = document.querySelector('#run-5');
run.open = true;
run.querySelectorAll('details.transcript, details.check').forEach(d => d.open = true);
[...run.querySelectorAll('.transcript .entry > details')].slice(0, 5).forEach(d => d.open = true);
window.scrollTo(0, 0);
Math.round(run.getBoundingClientRect().top + window.scrollY)
"""


def main() -> None:
    target = Path(sys.argv[1])
    target.mkdir(parents=True, exist_ok=True)
    executable = chromium_path()
    if executable is None:
        raise SystemExit("chromium is not installed")
    root = Path(tempfile.mkdtemp(prefix="reports-shots-"))
    try:
        a = build_run(root / "a", hostile=False)
        b = build_run(
            root / "b",
            hostile=False,
            run_id="20261201-130000-cd34",
            plan=OTHER_PLAN,
            model="fake/model-2",
            spend=0.7,
        )
        page, ab = root / "report.html", root / "ab.html"
        subprocess.run([GARUDA, "report", str(a), "--format", "html", "-o", str(page)], check=True)
        subprocess.run(
            [GARUDA, "report", str(a), str(b), "--format", "html", "-o", str(ab)], check=True
        )
        with open_browser(executable) as browser:
            browser.load(page)
            browser.screenshot(target / "report.png", max_height=1500)
            top = browser.evaluate(OPEN_RUN)
            browser.screenshot(target / "report-run.png", max_height=1400, top=int(top) - 10)
            browser.load(ab)
            browser.screenshot(target / "report-ab.png", max_height=1500)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
