"""Runs kept reusable, through the ``garuda`` command: SIGKILL then --resume, refusals,
regrade after a check changed, ``garuda runs``, and a closed output pipe."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from garuda_evals import __version__
from garuda_evals.testing import GARUDA_SCRIPT, sleep_marker, wait_for_processes

GARUDA = [str(GARUDA_SCRIPT)]
SLEEP = sleep_marker(41)


def garuda(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GARUDA, *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / ".git").mkdir(parents=True)
    return folder


def reports(project: Path) -> list[Path]:
    return sorted((project / ".garuda" / "evals").glob("*/report.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def rows(report: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [(r["task"], r["repeat"], r["status"]) for r in report["results"]]


def solver(mini: Path, log: Path, mark: Path) -> str:
    """Solves add; the first greet ever sleeps (to be killed), later ones solve it."""
    return (
        f'echo "$GARUDA_TASK_ID" >> {log}; case "$GARUDA_TASK_ID" in '
        f"add) cp {mini}/add/solution/src/calc.py src/calc.py;; "
        f"greet) if [ -e {mark} ]; then cp {mini}/greet/solution/src/greet.py src/greet.py; "
        f"else touch {mark}; sleep {SLEEP}; fi;; esac"
    )


def test_sigkill_then_resume_equals_an_uninterrupted_run(
    project: Path, mini_suite: Path, tmp_path: Path
) -> None:
    scratch, log, mark = tmp_path / "scratch", tmp_path / "calls.log", tmp_path / "mark"
    scratch.mkdir()
    args = ["eval", "--agent", "command", "--agent-command", solver(mini_suite, log, mark)]
    args += ["-s", str(mini_suite), "--executor", "host"]
    env = {**os.environ, "TMPDIR": str(scratch)}
    process = subprocess.Popen(
        [*GARUDA, *args], cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    sleeper = wait_for_processes(f"^sleep {SLEEP}$", limit_s=60, started=process)[0]
    process.kill()  # SIGKILL: no handler runs, nothing is written after this
    process.communicate(timeout=60)
    os.kill(sleeper, signal.SIGKILL)  # the orphaned agent command this test started
    (run_dir,) = (project / ".garuda" / "evals").iterdir()
    assert not (run_dir / "report.json").exists()
    assert len((run_dir / "results.jsonl").read_text().splitlines()) == 1
    listed = garuda("runs", cwd=project)
    assert "no report (1/2 runs saved: --resume it)" in listed.stdout
    shown = garuda("report", str(run_dir), cwd=project)
    assert shown.returncode == 1
    assert f"(1 runs saved in results.jsonl): garuda eval --resume {run_dir.name}" in shown.stderr
    killed = (run_dir / "greet.jsonl").read_bytes()  # the killed attempt's transcript
    assert killed.count(b'"type": "command"') == 1

    resumed = garuda("eval", "--resume", run_dir.name, cwd=project, env={"TMPDIR": str(scratch)})
    assert resumed.returncode == 0, resumed.stderr
    assert f"--resume {run_dir.name}: 1 of 2 runs kept, 1 to run" in resumed.stderr
    assert log.read_text().split() == ["add", "greet", "greet"]  # add was not run again
    report = load(run_dir / "report.json")

    other = project.parent / "other"
    (other / ".git").mkdir(parents=True)
    straight = garuda(*args, cwd=other, env={"TMPDIR": str(scratch)})
    assert straight.returncode == 0, straight.stderr
    (uninterrupted,) = [load(p) for p in reports(other)]
    assert rows(report) == rows(uninterrupted) == [("add", 1, "PASS"), ("greet", 1, "PASS")]
    for key in ("attempted", "scored", "passed", "errors", "interrupted", "totalsIncomplete"):
        assert report["summary"][key] == uninterrupted["summary"][key], key
    assert report["interrupted"] is False and report["replaced"] == []
    assert len((run_dir / "results.jsonl").read_text().splitlines()) == 2
    # the new attempt writes files of its own: the killed one's transcript is left as it was
    assert [r["change"] for r in report["results"]] == [
        "changes/add.diff",
        "changes/greet.attempt-2.diff",
    ]
    assert [Path(r["transcript"]).name for r in report["results"]] == [
        "add.jsonl",
        "greet.attempt-2.jsonl",
    ]
    assert (run_dir / "greet.jsonl").read_bytes() == killed
    assert (run_dir / "greet.attempt-2.jsonl").read_bytes().count(b'"type": "command"') == 1


def test_resume_refuses_a_different_setting_suite_or_version(
    project: Path, mini_suite: Path
) -> None:
    done = garuda(
        "eval",
        "--agent",
        "oracle",
        "-s",
        str(mini_suite),
        "-t",
        "add",
        "--executor",
        "host",
        cwd=project,
    )
    assert done.returncode == 0, done.stderr
    run_dir = reports(project)[0].parent
    run_id = run_dir.name

    def refused(*extra: str) -> str:
        result = garuda("eval", "--resume", run_id, *extra, cwd=project)
        assert result.returncode == 1, result.stderr
        assert "Traceback" not in result.stderr, result.stderr
        return result.stderr.strip().splitlines()[-1]

    assert refused("--repeat", "2") == (
        f"garuda: error: --resume {run_id}: refused, --repeat is 2 here but 1 in the run"
    )
    resumed = garuda("eval", "--resume", run_id, "--report-format", "json", cwd=project)
    assert resumed.returncode == 0 and json.loads(resumed.stdout)["summary"]["passed"] == 1
    (mini_suite / "add" / "files" / "NOTES.md").write_text("the task changed\n")
    assert f"--resume {run_id}: refused, the tasks of suite mini changed since the run" in (
        refused()
    )
    (mini_suite / "add" / "files" / "NOTES.md").unlink()
    manifest = json.loads((run_dir / "run.json").read_text())
    manifest["versions"]["garuda-evals"] = "0.0.1"
    (run_dir / "run.json").write_text(json.dumps(manifest))
    assert refused() == (
        f"garuda: error: --resume {run_id}: refused, version of garuda-evals is "
        f"{__version__} here but 0.0.1 in the run"
    )
    missing = garuda("eval", "--resume", "nope", cwd=project)
    assert missing.returncode == 1 and "--resume nope: no such run" in missing.stderr
    report = json.loads((run_dir / "report.json").read_text())
    for result in report["results"]:
        del result["change"]  # as a garuda that kept no changes wrote it
    (run_dir / "report.json").write_text(json.dumps(report))
    old = garuda("regrade", run_id, cwd=project)
    assert old.returncode == 1 and old.stderr.strip().endswith(
        f"regrade {run_id}: no run of {run_id} has a kept change to judge "
        "(only PASS and FAIL runs of a garuda that keeps changes have one; a run a limit "
        "stopped keeps its verdict)"
    )


def test_regrade_after_the_check_changed_shows_the_flips_and_keeps_usage(
    project: Path, mini_suite: Path
) -> None:
    fix_add = (
        f"cp {mini_suite}/add/solution/src/calc.py src/calc.py; printf '\\000\\377' > blob.bin"
    )
    done = garuda(
        "eval", "--agent", "command", "--agent-command", fix_add,
        "-s", str(mini_suite), "--executor", "host", cwd=project,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    (original_path,) = reports(project)
    original = load(original_path)
    assert rows(original) == [("add", 1, "PASS"), ("greet", 1, "FAIL")]
    assert b"GIT binary patch" in (original_path.parent / "changes" / "add.diff").read_bytes()
    tests = mini_suite / "add" / "files" / "tests" / "test_calc.py"
    # Stricter, and only passed by the agent's stored change: add must stay PASS.
    tests.write_text(tests.read_text() + "\n\ndef test_more():\n    assert add(1, 1) == 2\n")
    greet_tests = mini_suite / "greet" / "files" / "tests" / "test_greet.py"
    greet_tests.write_text(
        'from greet import greet\n\n\ndef test_greet():\n    assert greet("x")\n'
    )
    first = garuda("regrade", original["runId"], cwd=project)
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[:2] == [
        "1 changed: 1 up, 0 down",
        "  up    mini/greet#1: FAIL -> PASS",
    ]
    tests.write_text("from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 6\n")
    second = garuda("regrade", str(original_path.parent), cwd=project)
    assert second.stdout.splitlines()[:3] == [
        "2 changed: 1 up, 1 down",
        "  up    mini/greet#1: FAIL -> PASS",
        "  down  mini/add#1: PASS -> FAIL",
    ]
    regraded = [load(p) for p in reports(project) if p != original_path]
    assert {r["regradeOf"] for r in regraded} == {original["runId"]}
    for report in regraded:
        assert [r["usage"] for r in report["results"]] == [r["usage"] for r in original["results"]]
        assert report["summary"]["costUsd"] == original["summary"]["costUsd"]
        assert (original_path.parent.parent / report["runId"] / "changes" / "add.diff").is_file()
    assert load(original_path) == original  # the original is never rewritten

    listed = garuda("runs", cwd=project).stdout.splitlines()
    assert listed[0].split()[:2] == ["run", "date"] and len(listed) == 4
    assert listed[-1].startswith(original["runId"]) and "command" in listed[-1]
    assert f"regrade of {original['runId']}" in listed[1]
    assert "1/2 50%" in listed[-1]
    needs = garuda("runs", "--prune", cwd=project)
    assert needs.returncode == 1 and "--keep-last N" in needs.stderr
    assert len(reports(project)) == 3
    pruned = garuda("runs", "--prune", "--keep-last", "1", cwd=project)
    assert pruned.returncode == 0 and "2 run(s) removed, 1 kept" in pruned.stdout
    assert len(reports(project)) == 1 and not original_path.exists()


def test_a_closed_output_pipe_does_not_stop_the_run(project: Path, mini_suite: Path) -> None:
    process = subprocess.Popen(
        [*GARUDA, "eval", "--agent", "oracle", "-s", str(mini_suite), "--executor", "host"],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    assert process.stdout is not None
    process.stdout.readline()  # like `| head -1`: read a line, then go away
    process.stdout.close()
    assert process.wait(timeout=120) == 0
    (report,) = [load(p) for p in reports(project)]
    assert rows(report) == [("add", 1, "PASS"), ("greet", 1, "PASS")]
