"""garuda import harbor end to end: the fixture's task folders, real bash and pytest, the
default executor (bwrap here)."""

from __future__ import annotations

import json
from pathlib import Path

from garuda_evals.testing import result_rows
from garuda_evals_harbor.suitefile import SUITE_FILE

from .conftest import Imported

REFUSED = (
    "  render-report: environment: render-report/environment/Dockerfile:2: the Debian "
    "package libgrdx-render0 is not installed on this host"
)


def _failures(imported: Imported) -> dict[str, str]:
    return {row["task"]: row.get("failure") or "" for row in imported.newest_report()["results"]}


def test_the_runnable_tasks_are_kept_and_the_other_refused_in_one_line(
    imported: Imported,
) -> None:
    saved = json.loads((imported.suite / SUITE_FILE).read_text())
    assert [task["id"] for task in saved["tasks"]] == ["csv-summary", "greeting"]
    assert [item["id"] for item in saved["skipped"]] == ["render-report"]
    assert REFUSED in imported.output.splitlines()
    pins = {task["id"]: task["expectedTests"] for task in saved["tasks"]}
    assert pins == {
        "csv-summary": [
            "junit tests.test_outputs::test_summary_exists",
            "junit tests.test_outputs::test_summary_totals",
            "reward",
        ],
        "greeting": ["reward"],
    }
    check = imported.garuda("suite", "check", str(imported.suite), "--repeat", "1")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "2 task(s) sound" in check.stdout


def test_oracle_passes_and_noop_fails_every_task(imported: Imported) -> None:
    oracle = imported.garuda("eval", "-s", str(imported.suite), "--agent", "oracle")
    assert oracle.returncode == 0, oracle.stdout + oracle.stderr
    assert result_rows(oracle.stdout, suite="suite") == {"csv-summary": "PASS", "greeting": "PASS"}
    noop = imported.garuda("eval", "-s", str(imported.suite), "--agent", "noop")
    assert noop.returncode == 2, noop.stdout + noop.stderr
    assert result_rows(noop.stdout, suite="suite") == {"csv-summary": "FAIL", "greeting": "FAIL"}
    reasons = _failures(imported)
    assert reasons["greeting"] == "check exited 0 but the runner reports failures: reward"
    assert reasons["csv-summary"].startswith(
        "check exited 0 but the runner reports failures: reward, junit tests.test_outputs::"
    )


def test_the_reference_is_what_solve_sh_wrote_in_container_paths(imported: Imported) -> None:
    task = json.loads((imported.suite / "tasks" / "csv-summary.json").read_text())
    assert sorted(task["solution"]) == ["summarize.py", "summary.txt"]
    assert task["solution"]["summary.txt"] == "east,3\nnorth,17\nsouth,6\n"
    assert 'open("/app/sales.csv")' in task["solution"]["summarize.py"]
    assert task["prompt"].endswith(
        "Read ./sales.csv (columns region,amount) and write ./summary.txt with one line per "
        "region, `region,total`, sorted by region, where total is the sum of the region's "
        "amounts.\n"
    )


def test_a_second_import_proves_nothing_again(imported: Imported) -> None:
    before = (imported.suite / SUITE_FILE).read_text()
    again = imported.garuda(*imported.import_args())
    assert again.returncode == 0, again.stdout + again.stderr
    assert "Checking" not in again.stdout
    assert REFUSED in again.stdout.splitlines()
    assert (imported.suite / SUITE_FILE).read_text() == before


def test_a_changed_task_folder_is_imported_again(imported: Imported, tmp_path: Path) -> None:
    import shutil

    tasks = tmp_path / "tasks"
    shutil.copytree(imported.tasks, tasks)
    suite = tmp_path / "suite"
    args = ["import", "harbor", str(tasks), "-o", str(suite), "--filter", "greeting"]
    first = imported.garuda(*args)
    assert first.returncode == 0, first.stdout + first.stderr
    test_sh = tasks / "greeting" / "tests" / "test.sh"
    test_sh.write_text(test_sh.read_text().replace("World", "Earth"))
    second = imported.garuda(*args)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "Checking 1 task(s)" in second.stdout and "greeting: sound" in second.stdout


def test_filter_and_max_tasks_choose_the_tasks(imported: Imported, tmp_path: Path) -> None:
    chosen = imported.garuda(
        *imported.import_args(
            "--filter", "e", "--max-tasks", "1", "--no-check", output=tmp_path / "s"
        )
    )
    assert chosen.returncode == 0, chosen.stdout + chosen.stderr
    saved = json.loads((tmp_path / "s" / SUITE_FILE).read_text())
    assert [task["id"] for task in saved["tasks"]] == ["greeting"]
    assert all(not task["proof"] for task in saved["tasks"])
    none = imported.garuda(*imported.import_args("--filter", "render", output=tmp_path / "r"))
    assert none.returncode == 1, none.stdout + none.stderr
    assert REFUSED in none.stdout.splitlines()
