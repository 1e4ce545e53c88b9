"""The go suite is sound under bwrap (garuda suite check), and a real run agrees."""

from __future__ import annotations

from pathlib import Path

from garuda_evals.api import ExecutorBackend, Suite
from garuda_evals.testing import assert_sound, check_soundness, result_rows, run_garuda
from garuda_evals.toolchains import ToolchainStatus

TASKS = ["01-moving-average", "02-slug-from-tests", "03-cents-across-packages"]


def test_the_suite_has_a_fix_a_feature_and_a_change_across_packages(go_suite: Suite) -> None:
    assert [task.id for task in go_suite.tasks()] == TASKS
    for task in go_suite.tasks():
        assert task.requires == ["go"]
        assert task.check.runner == "go-test"
        assert "GOPROXY=off" in task.check.command and "GOWORK=off" in task.check.command
        assert task.expected_tests, f"{task.id}: not pinned (garuda suite check go --pin)"
        assert {"tests/", "go.mod", "go.sum", "go.work"} <= set(task.protected)
    across = next(task for task in go_suite.tasks() if task.id == TASKS[2])
    assert across.solution is not None
    assert {path.split("/")[0] for path in across.solution.files} == {"inventory", "pricing"}


def test_the_suite_is_sound_under_bwrap(
    go: ToolchainStatus, bwrap: ExecutorBackend, go_suite: Suite
) -> None:
    soundness = check_soundness(go_suite, backend=bwrap, parallel=3)
    assert_sound(soundness)
    for item in soundness.tasks:
        assert item.shipped.check is not None and item.shipped.check.exit_code == 1, item.task
        # An unfinished task fails for its own reason (a build failure included), never as
        # tampering with the canaries.
        assert item.shipped.reason is not None, item.task
        assert item.shipped.reason.startswith("check exited 1: "), item.shipped.reason


def test_oracle_passes_and_noop_fails_every_task_in_a_run(
    go: ToolchainStatus, bwrap: ExecutorBackend, tmp_path: Path
) -> None:
    oracle = run_garuda("eval", "--agent", "oracle", "-s", "go", "--executor", "os", cwd=tmp_path)
    assert oracle.returncode == 0, oracle.stdout + oracle.stderr
    assert result_rows(oracle.stdout, "go") == dict.fromkeys(TASKS, "PASS")
    noop = run_garuda("eval", "--agent", "noop", "-s", "go", "--executor", "os", cwd=tmp_path)
    assert noop.returncode == 2, noop.stdout + noop.stderr
    assert result_rows(noop.stdout, "go") == dict.fromkeys(TASKS, "FAIL")
