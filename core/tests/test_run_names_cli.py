"""Naming a saved run, through the ``garuda`` command: ``runs``, ``report``, ``compare``,
``regrade`` and ``eval --resume`` accept the same names (what ``runs`` prints, a folder name,
a path); a folder that is not a run, a report of an unknown schema version and an ``-o``
into a missing folder each get one line or just work, never a traceback."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from garuda_evals.testing import run_garuda


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / ".git").mkdir(parents=True)
    return folder


@pytest.fixture
def run_dir(project: Path, mini_suite: Path) -> Path:
    done = run_garuda(
        "eval", "--agent", "oracle", "-s", str(mini_suite), "-t", "add", "--executor", "host",
        cwd=project,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (folder,) = (project / ".garuda" / "evals").iterdir()
    return folder


def listed_ids(project: Path) -> list[str]:
    listed = run_garuda("runs", cwd=project)
    assert listed.returncode == 0, listed.stderr
    return [line.split()[0] for line in listed.stdout.splitlines()[1:]]


def error_line(done: subprocess.CompletedProcess[str]) -> str:
    """The one line of a refusal (exit 1), without its prefix."""
    assert done.returncode == 1, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert "Traceback" not in done.stderr and len(lines) == 1, done.stderr
    return lines[0].removeprefix("garuda: error: ")


def test_every_command_takes_the_run_ids_garuda_runs_prints(
    project: Path, run_dir: Path, tmp_path: Path
) -> None:
    (run_id,) = listed_ids(project)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shown = run_garuda("report", run_id, cwd=project)
    assert shown.returncode == 0, shown.stderr
    assert "mini/add" in shown.stdout and "PASS" in shown.stdout
    as_json = run_garuda("report", run_id, "--format", "json", cwd=project)
    assert json.loads(as_json.stdout)["runId"] == run_id
    compared = run_garuda("compare", run_id, str(run_dir / "report.json"), cwd=project)
    assert compared.returncode == 0, compared.stderr
    assert f"A: {run_id}" in compared.stdout
    pair = run_garuda("report", run_id, str(run_dir), cwd=elsewhere)
    assert pair.returncode == 1 and f"report {run_id}: no such run" in pair.stderr
    assert run_garuda("regrade", run_id, cwd=project).returncode == 0
    resumed = run_garuda("eval", "--resume", run_id, cwd=project)
    assert resumed.returncode == 0, resumed.stderr

    # A folder renamed (kept as a baseline, say): runs still prints the run's id.
    baseline = run_dir.parent / "baseline"
    run_dir.rename(baseline)
    assert run_id in listed_ids(project)
    for args in (["report", run_id], ["report", "baseline"], ["compare", run_id, "baseline"]):
        done = run_garuda(*args, cwd=project)
        assert done.returncode == 0, (args, done.stderr)
    assert run_garuda("eval", "--resume", run_id, cwd=project).returncode == 0
    shutil.copytree(baseline, run_dir.parent / "baseline-2")
    ambiguous = error_line(run_garuda("report", run_id, cwd=project))
    assert ambiguous.startswith(f"report {run_id}: 2 run folders hold this run (")
    assert str(baseline) in ambiguous and f"{baseline}-2" in ambiguous


def test_a_folder_that_is_not_a_run_is_named_as_such(project: Path, run_dir: Path) -> None:
    stray = project / "notes"
    stray.mkdir()
    (stray / "todo.txt").write_text("not a run\n")
    for command in (["regrade"], ["report"], ["eval", "--resume"]):
        line = error_line(run_garuda(*command, str(stray), cwd=project))
        assert line == (
            f"{command[-1]} {stray}: {stray} is not a run folder "
            "(it holds no report.json or run.json)"
        )
    compared = error_line(run_garuda("compare", str(run_dir), "notes", cwd=project))
    assert (
        compared == "compare notes: notes is not a run folder (it holds no report.json or run.json)"
    )

    unfinished = project / ".garuda" / "evals" / "unfinished"
    unfinished.mkdir()
    shutil.copy(run_dir / "run.json", unfinished / "run.json")
    assert error_line(run_garuda("regrade", "unfinished", cwd=project)) == (
        f"{unfinished / 'report.json'}: not written yet, the run stopped or is still running "
        "(0 runs saved in results.jsonl): garuda eval --resume unfinished finishes it"
    )


def test_a_report_of_another_schema_version_is_refused_naming_the_file_and_field(
    project: Path, run_dir: Path
) -> None:
    file = run_dir / "report.json"
    report = json.loads(file.read_text())
    newer = "expected 1, got 99 (written by a newer garuda-evals: upgrade it to read this file)"
    cases = [
        (99, ["regrade", run_dir.name], newer),
        (99, ["report", run_dir.name], newer),
        (99, ["compare", str(run_dir), str(run_dir)], newer),
        ("one", ["report", run_dir.name], "expected 1, got 'one'"),
        (0, ["report", run_dir.name], "expected 1, got 0"),
    ]
    for version, command, problem in cases:
        file.write_text(json.dumps({**report, "schemaVersion": version}))
        assert error_line(run_garuda(*command, cwd=project)) == (
            f"{file}: field 'schemaVersion': {problem}"
        )
    file.write_text(json.dumps({**report, "schemaVersion": "1.0"}))  # the same version
    assert run_garuda("report", run_dir.name, cwd=project).returncode == 0
    file.write_text(json.dumps({**report, "schemaVersion": 99}))
    listed = run_garuda("runs", cwd=project).stdout
    assert "unreadable:" in listed and "field 'schemaVersion': expected 1, got 99" in listed
    del report["schemaVersion"]
    file.write_text(json.dumps(report))
    assert error_line(run_garuda("report", str(file), cwd=project)) == (
        f"{file}: field 'schemaVersion': missing (this garuda-evals reads 1)"
    )


def test_report_o_makes_missing_folders_and_names_the_flag_when_it_cannot_write(
    project: Path, run_dir: Path
) -> None:
    made = run_garuda(
        "report", str(run_dir), "--format", "json", "-o", "out/deep/run.json", cwd=project
    )
    assert made.returncode == 0, made.stderr
    assert json.loads((project / "out" / "deep" / "run.json").read_text())["runId"]
    assert made.stderr.strip() == "report: out/deep/run.json"
    (project / "a-file").write_text("")
    line = error_line(run_garuda("report", str(run_dir), "-o", "a-file/x.txt", cwd=project))
    assert line.startswith("-o a-file/x.txt: cannot write it: ")
