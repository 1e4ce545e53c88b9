"""garuda import exercism end to end: the fixture python track, real pytest, the default
executor (bwrap here)."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

from garuda_evals.api import EXECUTORS, driver_names
from garuda_evals.testing import result_rows, skip_or_fail
from garuda_evals_exercism.suitefile import SUITE_FILE

from .conftest import Imported

IDS = ["leap", "raindrops", "two-fer"]


def test_every_exercise_is_imported_sound_and_pinned(imported: Imported) -> None:
    saved = json.loads((imported.suite / SUITE_FILE).read_text())
    assert [task["id"] for task in saved["tasks"]] == IDS and saved["skipped"] == []
    pins = {task["id"]: task["expectedTests"] for task in saved["tasks"]}
    assert pins["two-fer"] == [
        "two_fer_test.TwoFerTest::test_a_name_given",
        "two_fer_test.TwoFerTest::test_another_name_given",
        "two_fer_test.TwoFerTest::test_no_name_given",
    ]
    task = json.loads((imported.suite / "tasks" / "raindrops.json").read_text())
    assert sorted(task["files"]) == ["pyproject.toml", "raindrops.py", "raindrops_test.py"]
    assert task["solution"] == {
        "raindrops.py": (
            imported.track / "exercises/practice/raindrops/.meta/example.py"
        ).read_text()
    }
    assert "raindrops_test.py" in task["protected"]
    assert task["prompt"].startswith("# Raindrops\n\n# Introduction\n\nRaindrops is")
    assert "Return the result; do not print it." in task["prompt"]
    check = imported.garuda("suite", "check", str(imported.suite), "--repeat", "1")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "3 task(s) sound" in check.stdout


def test_oracle_passes_and_noop_fails_every_task(imported: Imported) -> None:
    oracle = imported.garuda("eval", "-s", str(imported.suite), "--agent", "oracle")
    assert oracle.returncode == 0, oracle.stdout + oracle.stderr
    assert result_rows(oracle.stdout, suite="suite") == dict.fromkeys(IDS, "PASS")
    noop = imported.garuda("eval", "-s", str(imported.suite), "--agent", "noop")
    assert noop.returncode == 2, noop.stdout + noop.stderr
    assert result_rows(noop.stdout, suite="suite") == dict.fromkeys(IDS, "FAIL")
    reasons = {row["task"]: row["failure"] for row in imported.newest()[1]["results"]}
    assert reasons["two-fer"].startswith("check exited 1: 3 failed: two_fer_test.TwoFerTest::")


def test_an_edited_test_file_fails_the_run(imported: Imported) -> None:
    command = "printf 'def test_x():\\n    pass\\n' > two_fer_test.py"
    done = imported.garuda(
        "eval", "-s", str(imported.suite), "-t", "two-fer", "--agent", "command",
        "--agent-command", command,
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    row = imported.newest()[1]["results"][0]
    assert row["failure"] == "protected files changed: changed two_fer_test.py"


def _stolen(imported: Imported, executor: str) -> str:
    # The files are named through their folders, so that the sandbox, not the check of the
    # files an agent command names, is what keeps them out of reach.
    meta = imported.track / "exercises/practice/leap/.meta"
    tasks = imported.suite / "tasks"
    command = (
        f"meta={shlex.quote(str(meta))}; tasks={shlex.quote(str(tasks))}; "
        'cat "$meta/example.py" > stolen-track.txt 2>&1; '
        'cat "$tasks/leap.json" > stolen-suite.txt 2>&1; true'
    )
    done = imported.garuda(
        "eval", "-s", str(imported.suite), "-t", "leap", "--agent", "command",
        "--agent-command", command, "--executor", executor,
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    folder, report = imported.newest()
    return (folder / report["results"][0]["change"]).read_text(errors="replace")


def test_the_agent_reads_no_reference_solution_in_the_sandbox(imported: Imported) -> None:
    if "bwrap" not in driver_names(EXECUTORS):
        skip_or_fail("bwrap", "install garuda-evals-sandbox-bwrap")
    sandboxed = _stolen(imported, "os")
    assert "stolen-track.txt" in sandboxed and "stolen-suite.txt" in sandboxed
    assert "year % 400" not in sandboxed
    assert "year % 400" in _stolen(imported, "host"), "control: the host shows the example"


def test_a_second_import_proves_nothing_again(imported: Imported) -> None:
    before = (imported.suite / SUITE_FILE).read_text()
    again = imported.garuda(*imported.import_args())
    assert again.returncode == 0, again.stdout + again.stderr
    assert "Checking" not in again.stdout
    assert (imported.suite / SUITE_FILE).read_text() == before


def test_filter_and_max_tasks_choose_the_exercises(imported: Imported, tmp_path: Path) -> None:
    chosen = imported.garuda(
        *imported.import_args(
            "--filter", "r", "--max-tasks", "1", "--no-check", output=tmp_path / "s"
        )
    )
    assert chosen.returncode == 0, chosen.stdout + chosen.stderr
    saved = json.loads((tmp_path / "s" / SUITE_FILE).read_text())
    assert [task["id"] for task in saved["tasks"]] == ["raindrops"]
    none = imported.garuda(*imported.import_args("--filter", "nothing", output=tmp_path / "n"))
    assert none.returncode == 1 and "no exercise to import" in none.stderr, none.stderr


def test_exercises_that_cannot_be_tasks_are_skipped_each_in_one_line(
    imported: Imported, tmp_path: Path
) -> None:
    track = tmp_path / "track"
    shutil.copytree(imported.track, track)
    practice = track / "exercises" / "practice"
    (practice / "leap" / ".meta" / "config.json").write_text(
        '{"files": {"solution": [], "test": ["leap_test.py"]}}'
    )
    example = practice / "raindrops" / ".meta" / "example.py"
    example.write_text(example.read_text().replace('"Plong"', '"Plonk"'))
    go = practice / "hello-go"
    shutil.copytree(practice / "two-fer", go)
    config = json.loads((go / ".meta" / "config.json").read_text())
    config["files"] = {
        "solution": ["hello.go"],
        "test": ["hello_test.go"],
        "example": [".meta/example.go"],
    }
    (go / ".meta" / "config.json").write_text(json.dumps(config))
    for name in ("hello.go", "hello_test.go", ".meta/example.go"):
        (go / name).write_text("package hello\n")
    done = imported.garuda(*imported.import_args(track=track, output=tmp_path / "s"))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert "  hello-go: input: no check for tests in .go (tracks supported: python)" in lines
    assert (
        f"  leap: input: {practice / 'leap' / '.meta' / 'config.json'}: field "
        "'files.solution': List should have at least 1 item after validation, not 0"
    ) in lines
    assert any(
        line.startswith("  raindrops: check: fails solved: check exited 1: 2 failed:")
        for line in lines
    ), done.stdout
    saved = json.loads((tmp_path / "s" / SUITE_FILE).read_text())
    assert [task["id"] for task in saved["tasks"]] == ["two-fer"]
    again = imported.garuda(*imported.import_args(track=track, output=tmp_path / "s"))
    assert "Checking" not in again.stdout, "a check skip is kept, not proved again"


def test_the_policy_hides_the_suite_and_the_track(imported: Imported, tmp_path: Path) -> None:
    """Both hold the examples; a run's private /tmp hides them above too, this does anywhere."""
    from garuda_evals.api import SandboxPolicy
    from garuda_evals_exercism.builder import ExercismBuilder

    suite = ExercismBuilder().open(imported.suite)
    policy = suite.policy(suite.tasks()[0], SandboxPolicy(workspace=tmp_path))
    assert {imported.suite.resolve(), imported.track.resolve()} <= set(policy.hidden)
