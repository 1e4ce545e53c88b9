"""A saved run folder built from core's real models: report.json, transcripts and changes.

Five tasks × three repeats cover every mark the reports show: repeats that disagree, a task
that always fails, error runs, a suspicious change, retries and notices. With ``hostile`` the
agent's words carry markup, pipes and control characters, as an untrusted agent's may.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from garuda_evals.models.report import ExecutorRecord, Report
from garuda_evals.models.result import CheckOutcome, Status, TaskResult
from garuda_evals.models.settings import RunSettings
from garuda_evals.models.usage import Usage
from garuda_evals.report.summary import summarize, task_means
from garuda_evals.runner.report_build import save_report

HOSTILE = (
    '<script>document.title="pwned";window.pwned=1</script>'
    '<img src=x onerror="window.pwned=2"> | a | b | `tick` \x1b[31mred\x1b[0m \x00 end'
)
MARKER = "hostile-marker-"
DIFF = """diff --git a/calc.py b/calc.py
--- a/calc.py
+++ b/calc.py
@@ -1,3 +1,3 @@
 def add(a, b):
-    return a - b
+    return a + b
 # {extra}
"""
# task -> statuses of repeats 1..3
PLAN: dict[str, tuple[Status, ...]] = {
    "beta": (Status.PASS, Status.PASS, Status.PASS),
    "alpha": (Status.PASS, Status.FAIL, Status.PASS),
    "gamma": (Status.FAIL, Status.FAIL, Status.FAIL),
    "delta": (Status.PASS, Status.PASS, Status.PASS),
    "epsilon": (Status.ERR, Status.ERR, Status.ERR),
}
EXPECTED_GRID_ORDER = ["py/alpha", "py/gamma", "py/epsilon", "py/beta", "py/delta"]


def _events(text: str, step_error: bool) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [
        {
            "type": "start",
            "model": "fake/model",
            "system": "You fix code.",
            "tools": [{}, {}],
            "maxSteps": 30,
        },
        {
            "type": "request",
            "step": 1,
            "messagesFrom": 0,
            "messages": [{"role": "user", "content": f"Fix calc.py. {text}"}],
        },
    ]
    if step_error:
        events.append(
            {
                "type": "retry",
                "step": 1,
                "attempt": 1,
                "waitS": 0.5,
                "error": f"HTTP 529 overloaded {text}",
            }
        )
    events += [
        {
            "type": "response",
            "step": 1,
            "stopReason": "tool_use",
            "usage": {"output_tokens": 42},
            "body": {"content": [{"type": "text", "text": f"I will read the file. {text}"}]},
        },
        {"type": "tool_call", "id": "c1", "name": "read_file", "input": {"path": "calc.py"}},
        {
            "type": "tool_result",
            "id": "c1",
            "name": "read_file",
            "isError": False,
            "denied": False,
            "content": f"def add(a, b):\n    return a - b  {text}",
        },
        {"type": "notice", "message": f"step limit is near {text}"},
        {"type": "end", "stopReason": "done", "steps": 3, "usage": {}},
    ]
    return events


def build_run(
    root: Path,
    *,
    hostile: bool = True,
    run_id: str = "20261201-120000-ab12",
    plan: dict[str, tuple[Status, ...]] | None = None,
    model: str = "fake/model",
    spend: float = 1.0,
) -> Path:
    """Write a run folder under ``root`` and return it."""
    plan = plan or PLAN
    run_dir = root / ".garuda" / "evals" / run_id
    run_dir.mkdir(parents=True)
    has_change = "change" in TaskResult.model_fields
    results: list[TaskResult] = []
    for number, (task, statuses) in enumerate(plan.items()):
        for repeat, status in enumerate(statuses, 1):
            tag = f"{MARKER}{task}-{repeat}"
            text = f"{tag} {HOSTILE}" if hostile else ""
            transcript = run_dir / (f"{task}.jsonl" if repeat == 1 else f"{task}-{repeat}.jsonl")
            lines = [
                json.dumps({"t": 0, **e}, ensure_ascii=False)
                for e in _events(text, step_error=status is Status.ERR)
            ]
            if hostile and repeat == 1:
                lines.append("this line is not JSON <b>bold</b>")
            transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
            if hostile and repeat == 1:
                with transcript.open("ab") as raw:
                    raw.write(b"\xff\xfe not UTF-8 \xc3\n")
            extra: dict[str, Any] = {}
            if has_change and status is not Status.ERR:
                change = f"changes/{task}-{repeat}.diff"
                (run_dir / "changes").mkdir(exist_ok=True)
                (run_dir / change).write_text(DIFF.format(extra=text), encoding="utf-8")
                extra["change"] = change
            failure = None
            if status is Status.FAIL:
                failure = f"2 of 5 tests failed: test_add | expected 3, got -1 {text}".rstrip()
            elif status is Status.ERR:
                failure = f"agent error: provider overloaded {text}".rstrip()
            results.append(
                TaskResult(
                    task=task,
                    suite="py",
                    title=f"make {task} pass",
                    repeat=repeat,
                    status=status,
                    steps=round((3 + number + repeat) * spend),
                    usage=Usage(
                        input_tokens=round(1000 * (number + 1) * spend),
                        output_tokens=200 * repeat,
                        cost_usd=(0.01 * (number + 1) + 0.001 * repeat) * spend,
                        requests=3,
                    ),
                    duration_ms=1500 * (number + 1) + 100 * repeat,
                    stop_reason="done" if status is not Status.ERR else "error",
                    failure=failure,
                    check=CheckOutcome(
                        command="pytest -q",
                        exit_code=0 if status is Status.PASS else 1,
                        duration_ms=800,
                        tests_ran=5,
                        tests_failed=0 if status is Status.PASS else 2,
                        evidence="junit",
                        output_tail=f"===== 5 tests ===== {text}",
                    )
                    if status is not Status.ERR
                    else None,
                    transcript=str(transcript),
                    suspicious=[f"conftest.py: pytest_collection_modifyitems {text}"]
                    if (task, repeat) == ("beta", 2)
                    else [],
                    notices=[f"output cut {text}"] if (task, repeat) == ("gamma", 1) else [],
                    **extra,
                )
            )
    summary = summarize(results)
    report = Report(
        run_id=run_id,
        started_at="2026-12-01T12:00:00+00:00",
        finished_at="2026-12-01T12:05:00+00:00",
        wall_ms=300_000,
        settings=RunSettings(agent="garuda", suites=["py"], repeat=3),
        agent={"agent": "garuda", "model": model},
        executor=ExecutorRecord(name="bwrap", kind="os"),
        versions={"garuda-evals": "0.1.0"},
        summary=summary,
        tasks=task_means(results),
        results=results,
    )
    save_report(report, run_dir)
    return run_dir
