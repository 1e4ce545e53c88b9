"""What an agent cannot reach or forge: under bwrap it reads neither the held-out verifier
(the suite's folder, the task folders imported) nor the reference; a reward file or a
pytest configuration it leaves in its folder does not make a PASS."""

from __future__ import annotations

import shlex
from pathlib import Path

import anyio
import pytest

from garuda_evals.api import EXECUTORS, choose_executor, driver_names, get_registry
from garuda_evals.testing import self_test, skip_or_fail
from garuda_evals_harbor.builder import HarborBuilder

from .conftest import Imported


def _stolen(imported: Imported, executor: str) -> str:
    """What the agent's command copied into its workspace, as the run kept its change."""
    # The files are named through their folders, so that the sandbox, not the check of the
    # files an agent command names, is what keeps them out of reach.
    saved = imported.suite / "tasks"
    tests = imported.tasks / "csv-summary" / "tests"
    command = (
        f"saved={shlex.quote(str(saved))}; tests={shlex.quote(str(tests))}; "
        'cat "$saved/csv-summary.json" > stolen-suite.txt 2>&1; '
        'cat "$tests/test_outputs.py" > stolen-source.txt 2>&1; true'
    )
    done = imported.garuda(
        "eval", "-s", str(imported.suite), "-t", "csv-summary", "--agent", "command",
        "--agent-command", command, "--executor", executor,
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    report = imported.newest_report()
    folder = sorted(imported.root.glob(".garuda/evals/*/report.json"))[-1].parent
    return (folder / report["results"][0]["change"]).read_text(errors="replace")


def test_the_agent_reads_no_held_out_test_in_the_sandbox(imported: Imported) -> None:
    if "bwrap" not in driver_names(EXECUTORS):
        skip_or_fail("bwrap", "install garuda-evals-sandbox-bwrap")
    sandboxed = _stolen(imported, "os")
    assert "stolen-suite.txt" in sandboxed and "stolen-source.txt" in sandboxed
    assert "test_summary_totals" not in sandboxed and "summarize.py" not in sandboxed
    on_host = _stolen(imported, "host")
    assert "test_summary_totals" in on_host, "control: the host shows the verifier"


def _judge(imported: Imported, task_id: str, edit: object, backend: object) -> object:
    suite = HarborBuilder().open(imported.suite)
    task = next(task for task in suite.tasks() if task.id == task_id)
    return anyio.run(
        lambda: self_test(suite, task, solved=False, edit=edit, backend=backend)  # type: ignore[arg-type]
    )


def _backends() -> list[object]:
    found: list[object] = [choose_executor("host", get_registry()).backend]
    if "bwrap" in driver_names(EXECUTORS):
        found.append(choose_executor("os", get_registry()).backend)
    return found


QUITS_EARLY = {
    "instruction.md": "Write /app/done.txt holding `done`.\n",
    "environment/Dockerfile": "FROM debian:bookworm\nWORKDIR /app\n",
    "tests/test.sh": (
        "#!/bin/bash\n"
        "# Harbor reads a missing reward as a failure: this verifier writes one only on success.\n"
        "grep -qx done /app/done.txt || exit 0\n"
        "echo 1 > /logs/verifier/reward.txt\n"
    ),
    "solution/solve.sh": "#!/bin/bash\necho done > /app/done.txt\n",
}


@pytest.fixture(scope="module")
def quits_early(imported: Imported, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A task whose verifier writes no reward unless solved, imported and proved."""
    root = tmp_path_factory.mktemp("quits")
    for relative, text in QUITS_EARLY.items():
        (root / "tasks" / "quits-early" / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / "tasks" / "quits-early" / relative).write_text(text)
    done = imported.garuda("import", "harbor", str(root / "tasks"), "-o", str(root / "suite"))
    assert done.returncode == 0 and "quits-early: sound" in done.stdout, done.stdout + done.stderr
    return root / "suite"


@pytest.mark.parametrize("where", ["logs/verifier", ".garuda-check/logs/verifier", "verifier"])
def test_a_reward_left_in_the_folder_is_not_read(
    imported: Imported, quits_early: Path, where: str
) -> None:
    def plant(workspace: Path) -> None:
        (workspace / where).mkdir(parents=True)
        (workspace / where / "reward.txt").write_text("1\n")

    suite = HarborBuilder().open(quits_early)
    task = suite.tasks()[0]
    for backend in _backends():
        verdict = anyio.run(
            lambda backend=backend: self_test(
                suite, task, solved=False, edit=plant, backend=backend
            )
        )
        assert not verdict.passed, verdict
        assert verdict.reason == (
            "check exited 0 but no evidence that tests ran (no reward file was written "
            "(/logs/verifier/reward.txt or reward.json))"
        )


def test_a_pytest_configuration_left_in_the_folder_does_not_reach_the_verifier(
    imported: Imported,
) -> None:
    """A ``pytest.ini`` that roots pytest in the agent's folder and a ``conftest.py`` there
    that reports every test passed: the verifier's tests live outside the folder, as
    ``/tests`` is outside ``/app``, so neither is read."""

    def configure(workspace: Path) -> None:
        (workspace / "pytest.ini").write_text("[pytest]\n")
        (workspace / "conftest.py").write_text(
            "import pytest\n\n\n"
            "@pytest.hookimpl(hookwrapper=True)\n"
            "def pytest_runtest_makereport(item, call):\n"
            "    outcome = yield\n"
            "    outcome.get_result().outcome = 'passed'\n"
        )

    for backend in _backends():
        verdict = _judge(imported, "csv-summary", configure, backend)
        assert not verdict.passed, verdict  # type: ignore[attr-defined]
        assert verdict.reason.startswith(  # type: ignore[attr-defined]
            "check exited 0 but the runner reports failures: reward, junit tests.test_outputs::"
        )


def test_a_module_standing_in_for_pytest_is_refused(imported: Imported) -> None:
    def shadow(workspace: Path) -> None:
        (workspace / "pytest.py").write_text("raise SystemExit(0)\n")

    verdict = _judge(
        imported, "csv-summary", shadow, choose_executor("host", get_registry()).backend
    )
    assert not verdict.passed  # type: ignore[attr-defined]
    assert verdict.reason == (  # type: ignore[attr-defined]
        "refused: pytest.py shadows the module pytest in the working folder"
    )


def test_the_policy_hides_the_suite_and_the_task_folders(
    imported: Imported, tmp_path: Path
) -> None:
    """Both hold the verifier and the reference; a run's private /tmp hides them above too,
    this does anywhere. The judge's tests beside its folder are shown read-only."""
    from garuda_evals.api import SandboxPolicy

    suite = HarborBuilder().open(imported.suite)
    policy = suite.policy(suite.tasks()[0], SandboxPolicy(workspace=tmp_path / "w"))
    assert {imported.suite.resolve(), imported.tasks.resolve()} <= set(policy.hidden)
    assert policy.read_only == (tmp_path / "w.tests",)
