"""A suite's self-test (oracle, --repeat 3) is stored per task version and flags later runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from garuda_evals.errors import FileFormatError
from garuda_evals.models.report import ExecutorRecord, Report
from garuda_evals.models.result import Status, TaskResult
from garuda_evals.models.settings import RunSettings
from garuda_evals.report.summary import summarize, task_means
from garuda_evals.report.table import TableFormatter
from garuda_evals.runner.selftest import apply_selftest

GARUDA = [sys.executable, "-c", "from garuda_evals.cli.main import entry; entry()"]


def garuda(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The ``garuda`` command as a user runs it."""
    return subprocess.run(
        [*GARUDA, *args], cwd=cwd, env=dict(os.environ), capture_output=True, text=True, timeout=300
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty git project (runs and self-tests are stored in its .garuda/)."""
    folder = tmp_path / "project"
    (folder / ".git").mkdir(parents=True)
    return folder


FLIP_TEST = """\
from pathlib import Path

from calc import add

COUNTER = Path({counter!r})


def test_add_on_odd_runs():
    count = int(COUNTER.read_text()) + 1 if COUNTER.exists() else 1
    COUNTER.write_text(str(count))
    assert add(2, 3) == 5
    assert count % 2 == 1, "the reference passes only on odd runs"
"""


def _flip(mini_suite: Path, counter: Path) -> None:
    """Make mini/add's own test flip: its reference solution passes on odd runs only."""
    test = mini_suite / "add" / "files" / "tests" / "test_calc.py"
    test.write_text(FLIP_TEST.format(counter=str(counter)))


def _eval(project: Path, suite: Path, *extra: str) -> dict[str, object]:
    result = garuda(
        "eval", "--agent", "oracle", "-s", str(suite), "--executor", "host",
        "--report-format", "json", *extra, cwd=project,
    )  # fmt: skip
    assert result.returncode in (0, 2), result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


def _task(report: dict[str, object], name: str) -> dict[str, object]:
    tasks = report["tasks"]
    assert isinstance(tasks, list)
    found: dict[str, object] = next(t for t in tasks if t["task"] == name)
    return found


def test_self_test_flags_a_flipping_reference_in_later_runs(
    project: Path, mini_suite: Path, tmp_path: Path
) -> None:
    _flip(mini_suite, tmp_path / "counter")
    selftest = _eval(project, mini_suite, "-t", "add", "--repeat", "3")
    add = _task(selftest, "add")
    assert add["flaky"] is True and add["selfTest"] == "flaky"
    stored = json.loads((project / ".garuda" / "selftest" / "mini.json").read_text())
    assert stored["tasks"]["add"]["verdict"] == "flaky"
    assert stored["tasks"]["add"]["passes"] == 2 and stored["tasks"]["add"]["runs"] == 3

    # a later single run passes (the counter makes it run 5) and still shows the flag
    (tmp_path / "counter").write_text("4")
    later = garuda(
        "eval", "--agent", "oracle", "-s", str(mini_suite), "-t", "add", "--executor", "host",
        cwd=project,
    )  # fmt: skip
    assert later.returncode == 0, later.stderr
    assert "mini/add: its reference solution flipped in the suite's self-test" in later.stdout

    # a changed task is another version: the old verdict no longer applies
    toml = mini_suite / "add" / "task.toml"
    toml.write_text(toml.read_text().replace("Fix it.", "Fix it, please."))
    assert _task(_eval(project, mini_suite, "-t", "add"), "add")["selfTest"] is None


def _report(agent: str, repeat: int, statuses: dict[str, list[Status]]) -> Report:
    results = [
        TaskResult(task=task, suite="mini", repeat=i + 1, status=status)
        for task, runs in statuses.items()
        for i, status in enumerate(runs)
    ]
    return Report(
        run_id=f"{agent}-{repeat}",
        started_at="",
        finished_at="",
        wall_ms=0,
        settings=RunSettings(repeat=repeat),
        agent={"agent": agent},
        executor=ExecutorRecord(name="host", kind="host"),
        versions={},
        summary=summarize(results),
        tasks=task_means(results),
        results=results,
    )


P, F, E = Status.PASS, Status.FAIL, Status.ERR
VERSIONS = {("mini", "add"): "v1", ("mini", "greet"): "v1", ("mini", "gone"): "v1"}


def test_only_an_oracle_run_repeated_three_times_records(tmp_path: Path) -> None:
    store = tmp_path / ".garuda" / "selftest" / "mini.json"
    for agent, repeat in [("oracle", 2), ("noop", 3), ("command", 5)]:
        apply_selftest(_report(agent, repeat, {"add": [F] * repeat}), VERSIONS, tmp_path)
        assert not store.exists(), (agent, repeat)
    interrupted = _report("oracle", 3, {"add": [F, F, F]})
    interrupted.interrupted = True
    apply_selftest(interrupted, VERSIONS, tmp_path)
    assert not store.exists()
    regraded = _report("oracle", 3, {"add": [F, F, F]})
    regraded.regrade_of = "20261130-073512-3fa9"  # judged an older version's solution
    apply_selftest(regraded, VERSIONS, tmp_path)
    assert not store.exists()

    oracle = _report("oracle", 3, {"add": [P, F, P], "greet": [P, E, P], "gone": [F, F, F]})
    apply_selftest(oracle, VERSIONS, tmp_path)
    assert [m.self_test for m in oracle.tasks] == ["flaky", "stable", "broken"]
    later = _report("noop", 1, {"add": [F], "greet": [F], "gone": [F]})
    apply_selftest(later, {**VERSIONS, ("mini", "gone"): "v2"}, tmp_path)
    assert [m.self_test for m in later.tasks] == ["flaky", "stable", None]
    text = TableFormatter().render(later)
    assert "mini/add: its reference solution flipped in the suite's self-test" in text
    assert "mini/gone" not in text.split("flaky")[1] and "mini/greet:" not in text


def test_a_broken_store_names_its_file(tmp_path: Path) -> None:
    store = tmp_path / ".garuda" / "selftest" / "mini.json"
    store.parent.mkdir(parents=True)
    store.write_text('{"schemaVersion": 1, "tasks": {"add": {"version": 3}}}')
    with pytest.raises(FileFormatError, match=str(store)):
        apply_selftest(_report("noop", 1, {"add": [F]}), VERSIONS, tmp_path)
