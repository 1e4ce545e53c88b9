"""garuda import swe-bench end to end: real git repositories, real pytest, a unittest runner
with Django's names, the default executor (bwrap here)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from garuda_evals.testing import result_rows
from garuda_evals_swebench.suitefile import SUITE_FILE

from .conftest import Imported

IDS = [
    "acme__calc-1", "acme__calc-2", "acme__calc-3",
    "acme__shapes-1", "acme__shapes-2", "acme__shapes-3",
]  # fmt: skip


def _rows(stdout: str) -> dict[str, str]:
    return result_rows(stdout, suite="suite")


def _failures(imported: Imported) -> dict[str, str]:
    """Each run's reason in the newest report: ``task -> failure``."""
    newest = sorted(imported.root.glob(".garuda/evals/*/report.json"))[-1]
    results = json.loads(newest.read_text())["results"]
    return {row["task"]: row.get("failure") or "" for row in results}


def test_every_instance_is_imported_and_sound(imported: Imported) -> None:
    saved = json.loads((imported.suite / SUITE_FILE).read_text())
    assert [task["id"] for task in saved["tasks"]] == IDS
    assert saved["skipped"] == []
    runners = {task["id"]: task["runner"] for task in saved["tasks"]}
    assert runners["acme__calc-1"] == "swe-pytest" and runners["acme__shapes-1"] == "swe-django"
    check = imported.garuda("suite", "check", str(imported.suite), "--repeat", "1")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "6 task(s) sound" in check.stdout


def test_oracle_passes_and_noop_fails_every_task(imported: Imported, tmp_path: Path) -> None:
    oracle = imported.garuda(
        "eval", "-s", str(imported.suite), "--agent", "oracle", "--parallel", "2"
    )
    assert oracle.returncode == 0, oracle.stdout + oracle.stderr
    assert set(_rows(oracle.stdout).values()) == {"PASS"} and len(_rows(oracle.stdout)) == 6
    noop = imported.garuda("eval", "-s", str(imported.suite), "--agent", "noop", "--parallel", "2")
    assert noop.returncode == 2, noop.stdout + noop.stderr
    assert set(_rows(noop.stdout).values()) == {"FAIL"} and len(_rows(noop.stdout)) == 6
    # Each id style's FAIL_TO_PASS is named, as the instance names it, in the reasons.
    reasons = _failures(imported)
    assert reasons["acme__calc-1"] == (
        "check exited 0 but the runner reports failures: tests/test_funcs.py::test_f0, "
        "tests/test_funcs.py::TestMore::test_f0_negative"
    )
    assert reasons["acme__shapes-2"] == (
        "check exited 0 but the runner reports failures: test_f1 (funcs_tests.tests.FuncTests), "
        "test_f1_twice (funcs_tests.tests.FuncTests.test_f1_twice), f1 of zero is 1."
    )


def test_a_second_import_proves_nothing_again(imported: Imported) -> None:
    before = (imported.suite / SUITE_FILE).read_text()
    again = imported.garuda(*imported.import_args())
    assert again.returncode == 0, again.stdout + again.stderr
    assert "Checking" not in again.stdout and "built in" not in again.stdout
    assert (imported.suite / SUITE_FILE).read_text() == before


def test_filter_and_max_tasks_choose_the_instances(imported: Imported, tmp_path: Path) -> None:
    chosen = imported.garuda(
        *imported.import_args(
            "--filter", "shapes", "--max-tasks", "2", "--no-check", output=tmp_path / "s"
        )
    )
    assert chosen.returncode == 0, chosen.stdout + chosen.stderr
    saved = json.loads((tmp_path / "s" / SUITE_FILE).read_text())
    assert [task["id"] for task in saved["tasks"]] == ["acme__shapes-1", "acme__shapes-2"]
    assert all(task["proof"] == "" for task in saved["tasks"])


def test_an_environment_that_fails_skips_its_instances_with_the_reason(
    imported: Imported, tmp_path: Path
) -> None:
    recipe = (
        imported.paths["recipe"]
        .read_text()
        .replace(
            'runner = "django"',
            'runner = "django"\n[repos."acme/shapes".versions."1.0"]\nsetup = ["echo no python here >&2; exit 3"]',
        )
    )
    (tmp_path / "recipe.toml").write_text(recipe)
    args = imported.import_args(output=tmp_path / "s")
    args[args.index("--env-recipe") + 1] = str(tmp_path / "recipe.toml")
    done = imported.garuda(*args)
    assert done.returncode == 0, done.stdout + done.stderr
    saved = json.loads((tmp_path / "s" / SUITE_FILE).read_text())
    assert [task["id"] for task in saved["tasks"]] == IDS[:3]
    reason = (
        "no environment (acme__shapes/1.0-{}): setup command 1 ('echo no python here >&2; exit 3') "
        "exited 3: no python here"
    )
    key = saved["skipped"][0]["envKey"].rsplit("-", 1)[1]
    assert [item["reason"] for item in saved["skipped"]] == [reason.format(key)] * 3
    assert f"  acme__shapes-1: {reason.format(key)}" in done.stdout
    listed = imported.garuda("eval", "-s", str(tmp_path / "s"), "--agent", "noop")
    assert set(_rows(listed.stdout)) == {f"suite/{i}" for i in IDS[:3]} or set(
        result_rows(listed.stdout)
    ) == {f"s/{i}" for i in IDS[:3]}


def test_a_missing_clone_or_recipe_is_a_reason_not_an_error(
    imported: Imported, tmp_path: Path
) -> None:
    repos = tmp_path / "repos"
    repos.mkdir()
    shutil.copytree(imported.paths["repos"] / "acme__calc", repos / "acme" / "calc")
    args = imported.import_args("--no-check", output=tmp_path / "s")
    args[args.index("--repos") + 1] = str(repos)
    done = imported.garuda(*args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (
        f"  acme__shapes-1: no clone of acme/shapes under {repos} (as acme__shapes or acme/shapes)"
        in done.stdout
    )


def test_grading_predictions_writes_an_ordinary_run(imported: Imported, tmp_path: Path) -> None:
    graded = imported.garuda("grade", str(imported.paths["predictions"]), "-s", str(imported.suite))
    assert graded.returncode == 2, graded.stdout + graded.stderr
    assert _rows(graded.stdout) == {"acme__calc-1": "PASS", "acme__calc-2": "FAIL"}
    assert "1/2 scored runs passed" in graded.stdout
    reports = sorted(imported.root.glob(".garuda/evals/*/report.json"))
    report = json.loads(reports[-1].read_text())
    assert report["settings"]["agent"] == "swe-prediction"
    run = reports[-1].parent.name
    regraded = imported.garuda("regrade", run)
    assert regraded.returncode == 0, regraded.stdout + regraded.stderr
    assert "0 changed" in regraded.stdout and "1/2 scored runs passed" in regraded.stdout
    shown = imported.garuda("report", str(reports[-1].parent))
    assert shown.returncode == 0 and "acme__calc-2" in shown.stdout


def _predict(imported: Imported, tmp_path: Path, instance: str, patch: str) -> Path:
    path = tmp_path / "predictions.jsonl"
    line = {"instance_id": instance, "model_name_or_path": "test", "model_patch": patch}
    path.write_text(json.dumps(line) + "\n")
    return path


def test_a_patch_that_breaks_a_pass_to_pass_test_fails(imported: Imported, tmp_path: Path) -> None:
    # The reference fix of f0, and f2 broken: FAIL_TO_PASS passes, PASS_TO_PASS does not.
    patch = imported.instances()[0]["patch"]
    assert patch.endswith(" def f1(x):\n")
    patch += "@@ -10,4 +10,4 @@\n \n \n def f2(x):\n-    return x + 2\n+    return x + 7\n"
    path = _predict(imported, tmp_path, "acme__calc-1", patch)
    graded = imported.garuda("grade", str(path), "-s", str(imported.suite))
    assert _rows(graded.stdout) == {"acme__calc-1": "FAIL"}, graded.stdout + graded.stderr
    assert _failures(imported)["acme__calc-1"] == (
        "check exited 0 but the runner reports failures: tests/test_funcs.py::test_f2"
    )


def test_a_changed_test_file_fails_the_run(imported: Imported, tmp_path: Path) -> None:
    instance = imported.instances()[0]
    edit = (
        "diff --git a/tests/test_funcs.py b/tests/test_funcs.py\n"
        "--- a/tests/test_funcs.py\n+++ b/tests/test_funcs.py\n"
        "@@ -1,3 +1,4 @@\n import pytest\n+# changed\n \n from calc.funcs import *  # noqa: F403\n"
    )
    path = _predict(imported, tmp_path, "acme__calc-1", instance["patch"] + edit)
    graded = imported.garuda("grade", str(path), "-s", str(imported.suite))
    assert _rows(graded.stdout) == {"acme__calc-1": "FAIL"}, graded.stdout + graded.stderr
    assert (
        _failures(imported)["acme__calc-1"]
        == "protected files changed: changed tests/test_funcs.py"
    )


def test_start_up_hooks_and_shadowing_modules_are_refused(
    imported: Imported, tmp_path: Path
) -> None:
    patch = imported.instances()[0]["patch"]
    for added, reason in (
        ("evil.pth", "refused: evil.pth is a .pth file, which Python's start-up executes"),
        ("json.py", "refused: json.py shadows the module json on an import root"),
    ):
        new = f"diff --git a/{added} b/{added}\nnew file mode 100644\n--- /dev/null\n+++ b/{added}\n@@ -0,0 +1 @@\n+x = 1\n"
        path = _predict(imported, tmp_path, "acme__calc-1", patch + new)
        graded = imported.garuda("grade", str(path), "-s", str(imported.suite))
        assert _rows(graded.stdout) == {"acme__calc-1": "FAIL"}, graded.stdout + graded.stderr
        assert _failures(imported)["acme__calc-1"] == reason
