"""Size and time to write a 100-run report in each format, side by side with report.json.

Usage: python bench/report_formats.py [--runs N] [--steps S]
Builds a saved run of 20 tasks × 5 repeats whose transcripts hold S agent steps each (a request,
a response, a tool call and its result per step, about 1 KB of text each), then writes it as
JSON, HTML (transcripts and diffs read from the run folder), JUnit XML and Markdown. Prints the
median time of N writes and the size of each, and their ratio to report.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "plugins" / "reports" / "tests"))

from sample import build_run  # noqa: E402

from garuda_evals.models.result import Status  # noqa: E402
from garuda_evals.report.compare import load_report  # noqa: E402
from garuda_evals.report.json_format import JsonFormatter  # noqa: E402
from garuda_evals_reports.html import HtmlFormatter  # noqa: E402
from garuda_evals_reports.junit import JUnitFormatter  # noqa: E402
from garuda_evals_reports.markdown import MarkdownFormatter  # noqa: E402

WORDS = "the quick brown fox jumps over the lazy dog while the tests run again " * 14


def _step(step: int) -> list[dict[str, object]]:
    return [
        {
            "t": 0,
            "type": "request",
            "step": step,
            "messagesFrom": step,
            "messages": [{"role": "user", "content": [{"type": "tool_result", "content": WORDS}]}],
        },
        {
            "t": 0,
            "type": "response",
            "step": step,
            "stopReason": "tool_use",
            "usage": {"output_tokens": 120},
            "body": {"content": [{"type": "text", "text": WORDS}]},
        },
        {
            "t": 0,
            "type": "tool_call",
            "id": f"c{step}",
            "name": "run_command",
            "input": {"command": "pytest -q"},
        },
        {
            "t": 0,
            "type": "tool_result",
            "id": f"c{step}",
            "name": "run_command",
            "isError": False,
            "denied": False,
            "content": WORDS,
        },
    ]


def build(root: Path, steps: int) -> Path:
    """A 100-run saved run with ``steps`` steps in every transcript."""
    cycle = (Status.PASS, Status.PASS, Status.FAIL, Status.PASS, Status.ERR)
    plan = {f"task-{n:02d}": tuple(cycle[(n + r) % 5] for r in range(5)) for n in range(20)}
    run_dir = build_run(root, hostile=False, plan=plan)
    for transcript in run_dir.glob("*.jsonl"):
        extra = [json.dumps(e) for step in range(2, steps + 1) for e in _step(step)]
        with transcript.open("a", encoding="utf-8") as file:
            file.write("\n".join(extra) + "\n")
    return run_dir


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--steps", type=int, default=15)
    options = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bench-reports-"))
    try:
        run_dir = build(root, options.steps)
        report = load_report(run_dir)
        transcripts = sum(p.stat().st_size for p in run_dir.glob("*.jsonl"))
        print(
            f"{len(report.results)} runs, {options.steps} steps each, "
            f"transcripts {transcripts / 1e6:.1f} MB on disk"
        )
        rows = []
        for name, formatter in (
            ("json", JsonFormatter()),
            ("html", HtmlFormatter()),
            ("junit", JUnitFormatter()),
            ("markdown", MarkdownFormatter()),
        ):
            times, text = [], ""
            for _ in range(options.runs):
                started = time.perf_counter()
                text = formatter.render_run(report, run_dir)
                (root / f"out.{name}").write_text(text, encoding="utf-8")
                times.append((time.perf_counter() - started) * 1000)
            rows.append((name, statistics.median(times), len(text.encode("utf-8"))))
        base_ms, base_size = rows[0][1], rows[0][2]
        for name, ms, size in rows:
            print(
                f"{name:9s}: {ms:8.1f} ms (median of {options.runs}) "
                f"{size / 1e6:7.2f} MB   x{ms / base_ms:5.1f} time, x{size / base_size:5.2f} size "
                "of report.json"
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
