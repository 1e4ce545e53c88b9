"""What a model run spent is kept: Ctrl-C during a slow model call (of ``garuda eval`` and of
``garuda ab``), and ``--retry-errors`` after a model server that failed once; and ``--resume``
needs the key only for calls left. Real ``garuda`` processes, real SIGINT."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.testing import GARUDA_SCRIPT, only_report, run_garuda, skip_or_fail
from garuda_evals_agent.testing import FakeModelServer, Fault, Reply, Text, Tokens, Use

MODEL = "anthropic/claude-haiku-4-5"
SPENT = Tokens(input=3000, output=200, cache_read=1000)


@pytest.fixture(scope="module")
def task() -> Any:
    """The python suite's first task (from garuda-evals-python)."""
    suites = PluginRegistry().collect("garuda_suites")
    if "python" not in suites:
        skip_or_fail("garuda-evals-python", "the python suite is not installed")
    return suites["python"].record.load().tasks()[0]


def model_env(url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "GARUDA_"))}
    env.update(
        ANTHROPIC_API_KEY="test-key",
        ANTHROPIC_BASE_URL=url,
        GARUDA_AGENT_RETRY_DELAY_S="0.01",
        GARUDA_AGENT_RETRIES="1",
    )
    return env


def test_ctrl_c_during_a_slow_model_call_keeps_what_was_spent(tmp_path: Path, task: Any) -> None:
    script = [
        Reply([Use("run_command", {"command": "echo one"})], usage=SPENT),
        Reply([Use("run_command", {"command": "echo two"})], usage=SPENT),
        Reply([Text("done")], delay_s=300),  # still thinking when Ctrl-C comes
    ]
    with FakeModelServer(script) as server:
        process = subprocess.Popen(
            [str(GARUDA_SCRIPT), "eval", "-m", MODEL, "-s", "python", "-t", task.id,
             "--executor", "host"],
            cwd=tmp_path, env=model_env(server.url), text=True,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        deadline = time.monotonic() + 120
        while len(server.model_calls()) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(server.model_calls()) == 3, "the third model call never came"
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    report = only_report(tmp_path, stderr)
    (row,) = report["results"]
    # three model calls were made (the third still unanswered); two were answered and priced,
    # the third may be billed too: its reservation counts and the usage is incomplete
    assert (row["status"], row["steps"], row["stopReason"]) == ("INT", 3, "interrupted")
    usage = row["usage"]
    assert (usage["inputTokens"], usage["outputTokens"], usage["cacheReadTokens"]) == (
        6000,
        400,
        2000,
    )
    assert usage["costUsd"] > 0 and (usage["requests"], usage["unreportedRequests"]) == (3, 1)
    assert not usage["tokensKnown"] and usage["costIncomplete"]
    assert usage["unreportedTokens"] > 0 and any("on its way" in n for n in usage["notes"])
    summary = report["summary"]
    assert summary["costUsd"] == usage["costUsd"] and summary["inputTokens"] == 6000
    assert summary["tokens"] is None and summary["costIncomplete"]
    assert "reserved" in stdout and "(incomplete)" in stdout
    assert (summary["attempted"], summary["interrupted"], summary["totalsIncomplete"]) == (
        0,
        1,
        True,
    )
    assert summary["scoredRate"] is None and summary["attemptedRate"] is None
    assert "totals incomplete: 1 run(s) interrupted" in stdout and "0 tokens" not in stdout
    run_dir = Path(row["transcript"]).parent
    lines = (run_dir / "results.jsonl").read_text().splitlines()
    assert [json.loads(line)["status"] for line in lines] == ["INT"]


def test_ctrl_c_during_ab_keeps_the_spend_of_the_run_in_flight(tmp_path: Path, task: Any) -> None:
    script = [
        Reply([Text("done")], usage=SPENT),  # arm A's turn: one call, then judged
        Reply([Use("run_command", {"command": "echo one"})], usage=SPENT),  # arm B's turn
        Reply([Use("run_command", {"command": "echo two"})], usage=SPENT),
        Reply([Text("done")], delay_s=300),  # still thinking when Ctrl-C comes
    ]
    with FakeModelServer(script) as server:
        process = subprocess.Popen(
            [str(GARUDA_SCRIPT), "ab", "--arm-a", "--keep-thinking on",
             "--arm-b", "--keep-thinking off", "--max-repeat", "1",
             "-m", MODEL, "-s", "python", "-t", task.id, "--executor", "host"],
            cwd=tmp_path, env=model_env(server.url), text=True,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        deadline = time.monotonic() + 120
        while len(server.model_calls()) < 4 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(server.model_calls()) == 4, "arm B's third model call never came"
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    reports = [Path(p) for p in stdout.split() if p.endswith("report.json")]
    a, b = (json.loads(p.read_text()) for p in reports)
    assert [r["status"] for r in a["results"]] == ["FAIL"]
    (row,) = b["results"]
    assert (row["status"], row["steps"], row["stopReason"]) == ("INT", 3, "interrupted")
    usage = row["usage"]
    # the third call, on its way at Ctrl-C, counts as unreported (its tokens unknown)
    assert (usage["inputTokens"], usage["outputTokens"], usage["requests"]) == (6000, 400, 3)
    assert (usage["unreportedRequests"], usage["tokensKnown"]) == (1, False)
    assert usage["costUsd"] > 0 and b["summary"]["costUsd"] == usage["costUsd"]
    lines = (reports[1].parent / "results.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == [row]  # the row is in the run's journal


def test_retry_errors_reruns_the_error_run_and_marks_it(tmp_path: Path, task: Any) -> None:
    writes = [Use("write_file", {"path": p, "content": c}) for p, c in task.solution.files.items()]
    with FakeModelServer([Fault(status=500), Fault(status=500)]) as server:
        env = model_env(server.url)
        args = ("-m", MODEL, "-s", "python", "-t", task.id, "--executor", "host")
        first = run_garuda("eval", *args, cwd=tmp_path, env=env, timeout=600)
        assert first.returncode == 2, first.stdout + first.stderr
        report = only_report(tmp_path)
        assert [r["status"] for r in report["results"]] == ["ERR"]
        first_transcript = Path(report["results"][0]["transcript"])
        erred = first_transcript.read_bytes()
        server.script = [Reply(writes, usage=SPENT), Reply([Text("done")], usage=SPENT)]
        again = run_garuda("eval", "--retry-errors", report["runId"], cwd=tmp_path, env=env)
    assert again.returncode == 0, again.stdout + again.stderr
    retried = only_report(tmp_path)
    assert retried["runId"] == report["runId"]
    (row,) = retried["results"]
    assert row["status"] == "PASS" and row["retried"] is True
    assert [r["status"] for r in retried["replaced"]] == ["ERR"]
    # the retry has a transcript of its own; the error run's is left as it was
    assert retried["replaced"][0]["transcript"] == str(first_transcript)
    assert Path(row["transcript"]) == first_transcript.with_name(f"{task.id}.attempt-2.jsonl")
    assert first_transcript.read_bytes() == erred and b"ModelCallError" in erred
    again_transcript = Path(row["transcript"]).read_bytes()
    assert again_transcript.count(b'"type": "start"') == 1 and b"ModelCallError" not in (
        again_transcript
    )
    assert retried["summary"]["attemptedRate"] == 1.0
    assert any(w.startswith("retried: 1 error run(s)") for w in retried["warnings"])
    assert "rerunning only errors can bias a rate" in again.stdout
    assert "--retry-errors" in again.stderr and "1 to run" in again.stderr


def test_resume_needs_the_api_key_only_when_a_model_will_be_called(
    tmp_path: Path, task: Any
) -> None:
    writes = [Use("write_file", {"path": p, "content": c}) for p, c in task.solution.files.items()]
    with FakeModelServer(
        [Reply(writes, usage=SPENT), Reply([Text("done")], usage=SPENT)]
    ) as server:
        env = model_env(server.url)
        args = ("-m", MODEL, "-s", "python", "-t", task.id, "--executor", "host")
        first = run_garuda("eval", *args, cwd=tmp_path, env=env, timeout=600)
        assert first.returncode == 0, first.stdout + first.stderr
        run_id = only_report(tmp_path)["runId"]
        calls = len(server.requests)
        without_key = {k: v for k, v in env.items() if k != "ANTHROPIC_API_KEY"}
        finished = run_garuda("eval", "--resume", run_id, cwd=tmp_path, env=without_key)
        assert finished.returncode == 0, finished.stderr
        assert f"--resume {run_id}: 1 of 1 runs kept, 0 to run" in finished.stderr
        assert len(server.requests) == calls  # not even the preflight
        assert [r["status"] for r in only_report(tmp_path)["results"]] == ["PASS"]

        journal = tmp_path / ".garuda" / "evals" / run_id / "results.jsonl"
        journal.write_text("")  # as if the run was killed before its row was written
        missing = run_garuda("eval", "--resume", run_id, cwd=tmp_path, env=without_key)
    assert missing.returncode == 1, missing.stderr
    assert f"--resume {run_id}: 0 of 1 runs kept, 1 to run" in missing.stderr
    assert missing.stderr.strip().splitlines()[-1] == (
        f"garuda: error: {MODEL} needs an API key: set ANTHROPIC_API_KEY "
        "(or use --agent oracle to run without a model)"
    )
    assert journal.read_text() == "" and len(server.requests) == calls
