"""The betting e-process, and ``garuda ab`` on scripted arms with known pass probabilities."""

from __future__ import annotations

import json
import math
import os
import random
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from garuda_evals.stats.sequential import PairedBettingTest, mixture_log_wealth
from garuda_evals.testing import processes_matching, sleep_marker, wait_for_processes

DATA = Path(__file__).parent / "suite_data"


def test_wealth_is_the_beta_mixture_and_ignores_concordant_pairs() -> None:
    rng = random.Random(3)
    test = PairedBettingTest()
    for _ in range(40):
        a, b = rng.random() < 0.4, rng.random() < 0.6
        test.update(a, b)
    assert test.log_wealth == pytest.approx(mixture_log_wealth(test.b_wins, test.a_wins))
    before = test.log_wealth
    test.update(True, True)
    test.update(False, False)
    assert test.log_wealth == before and test.pairs == 42


def test_decides_for_the_arm_that_wins_and_only_then() -> None:
    test = PairedBettingTest(alpha=0.05)
    for _ in range(6):  # the first bet is 0: seven straight wins reach 26.8 >= 20
        test.update(False, True)
    assert not test.decided and test.decision is None
    while not test.decided:
        test.update(False, True)
    assert test.decision == "B" and test.wealth >= 20 and test.b_wins == 7
    mirror = PairedBettingTest(alpha=0.05)
    for _ in range(7):
        mirror.update(True, False)
    assert mirror.decision == "A"
    with pytest.raises(ValueError):
        PairedBettingTest(alpha=1.5)


def false_decisions(trials: int, max_pairs: int, seed: int, peek_rule: str) -> float:
    """Share of equal-arm A/Bs that decide, looking after every pair."""
    rng = random.Random(seed)
    wrong = 0
    for _ in range(trials):
        p = rng.random()
        if peek_rule == "e-process":
            test = PairedBettingTest(alpha=0.05)
            for _ in range(max_pairs):
                test.update(rng.random() < p, rng.random() < p)
                if test.decided:
                    wrong += 1
                    break
        else:  # a fixed-size sign test re-run after every pair: the error the e-process avoids
            b = a = 0
            for _ in range(max_pairs):
                x, y = rng.random() < p, rng.random() < p
                b, a = b + (y and not x), a + (x and not y)
                n = b + a
                if n and 2 * sum(math.comb(n, i) for i in range(min(a, b) + 1)) / 2**n < 0.05:
                    wrong += 1
                    break
    return wrong / trials


def test_false_decisions_stay_below_alpha_while_naive_peeking_does_not() -> None:
    assert false_decisions(400, 150, seed=1, peek_rule="e-process") <= 0.05
    assert false_decisions(400, 150, seed=1, peek_rule="naive") > 0.08


GARUDA = [sys.executable, "-c", "from garuda_evals.cli.main import entry; entry()"]


@pytest.fixture
def coin(tmp_path: Path) -> Path:
    """A project with the three-task coin suite and the scripted agent."""
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    shutil.copytree(DATA / "coin", project / "coin")
    shutil.copy(DATA / "coin_agent.py", project / "agent.py")
    return project


def ab(
    project: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GARUDA, "ab", *args, "--agent", "command", "-s", "./coin", "--executor", "host"],
        cwd=project,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=300,
    )


def arm(project: Path, chance: float, name: str) -> str:
    return f"--agent-command 'python3 {project / 'agent.py'} {chance} 7 {project / name}'"


def test_ab_stops_early_on_a_real_difference(coin: Path) -> None:
    result = ab(coin, "--arm-a", arm(coin, 0.1, "a"), "--arm-b", arm(coin, 1.0, "b"))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("decision: B passes more (e-value ")
    spent = int(lines[1].split()[2])
    assert spent < 60 and "a fixed design of --max-repeat repeats would spend 60" in lines[2]
    reports = [Path(p) for p in lines[3].split() if p.endswith("report.json")]
    runs = [json.loads(p.read_text())["results"] for p in reports]
    for report in reports:  # run.json says what report.json says: the rounds run
        manifest = json.loads((report.parent / "run.json").read_text())
        repeat = json.loads(report.read_text())["settings"]["repeat"]
        assert manifest["settings"]["repeat"] == repeat and len(manifest["jobs"]) == 3 * repeat
    assert len(runs[0]) + len(runs[1]) == spent and len(runs[0]) == len(runs[1])
    assert all(r["status"] == "PASS" for r in runs[1])
    assert "e-value" in result.stderr and "[coin/one#1] A " in result.stderr
    compare = subprocess.run(
        [*GARUDA, *lines[4].split()[2:3], *[str(p.parent) for p in reports]],
        cwd=coin,
        capture_output=True,
        text=True,
    )
    assert "verdict: B passes more" in compare.stdout, compare.stderr


def test_ab_without_a_difference_runs_to_max_repeat(coin: Path) -> None:
    result = ab(
        coin, "--arm-a", arm(coin, 0.5, "a"), "--arm-b", arm(coin, 0.5, "b"), "--max-repeat", "2"
    )
    assert result.returncode == 2, result.stderr
    assert result.stdout.startswith("decision: none, no detectable difference at α 0.05")
    assert "runs spent: 12 (6 per arm over 3 task(s))" in result.stdout


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--arm-a", "--repeat 3", "--arm-b", ""], "--arm-a: --repeat is not for an arm"),
        (["--arm-a", "", "--arm-b", "--agent 'x"], "--arm-b: No closing quotation"),
        (["--arm-a", "--bogus", "--arm-b", ""], "--arm-a: No such option '--bogus'"),
        (
            ["--arm-a", "-t one --agent-command true", "--arm-b", "-t two --agent-command true"],
            "--arm-a and --arm-b select different tasks",
        ),
    ],
)
def test_ab_bad_arms_are_one_line(coin: Path, flags: list[str], message: str) -> None:
    result = ab(coin, *flags)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1].startswith(f"garuda: error: {message}")


def garuda(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GARUDA, *args], cwd=project, capture_output=True, text=True, timeout=300
    )


def test_ctrl_c_leaves_two_ordinary_run_folders(coin: Path) -> None:
    marker = sleep_marker(31)
    mark = coin / "slept"
    slow_b = (
        f"case $GARUDA_TASK_ID in two) if [ -e {mark} ]; then echo 42 > answer.txt; "
        f"else touch {mark}; sleep {marker}; fi;; *) true;; esac"
    )
    args = ["--arm-a", arm(coin, 1.0, "a"), "--arm-b", f"--agent-command '{slow_b}'"]
    shared = ["--agent", "command", "-s", "./coin", "--executor", "host"]
    process = subprocess.Popen(
        [*GARUDA, "ab", *args, *shared],
        cwd=coin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for_processes(f"^sleep {marker}$", started=process)  # arm B's command
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert stdout.startswith("interrupted: the A/B is partial\ndecision: none")
    reports = [Path(p) for p in stdout.split() if p.endswith("report.json")]
    a, b = (json.loads(p.read_text()) for p in reports)
    assert a["interrupted"] and b["interrupted"]
    # tasks run one, three, two; the first arm alternates, so A finished two before B hung
    assert [(r["task"], r["status"]) for r in a["results"]] == [
        ("one", "PASS"), ("three", "PASS"), ("two", "PASS"),
    ]  # fmt: skip
    assert [(r["task"], r["status"]) for r in b["results"]] == [
        ("one", "FAIL"), ("three", "FAIL"), ("two", "INT"),
    ]  # fmt: skip
    assert b["summary"]["interrupted"] == 1 and "interrupted" in a["warnings"][-1]
    assert processes_matching(f"^sleep {marker}$") == []  # killed
    folder_a, folder_b = (p.parent for p in reports)
    for folder, report in ((folder_a, a), (folder_b, b)):
        manifest = json.loads((folder / "run.json").read_text())
        assert manifest["jobs"] == ["coin/one#1", "coin/three#1", "coin/two#1"]
        assert manifest["settings"]["repeat"] == 1 and manifest["runId"] == folder.name
        rows = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]
        assert rows == report["results"]
        assert all(Path(r["transcript"]).parent == folder for r in rows)
    assert [r["change"] for r in a["results"]] == [
        "changes/one.diff", "changes/three.diff", "changes/two.diff",
    ]  # fmt: skip
    assert b"answer.txt" in (folder_a / "changes" / "two.diff").read_bytes()

    listed = garuda(coin, "runs").stdout
    assert listed.count("interrupted") == 2, listed
    regraded = garuda(coin, "regrade", folder_a.name)
    assert regraded.returncode == 0 and regraded.stdout.startswith("0 changed"), regraded.stderr
    resumed = garuda(coin, "eval", "--resume", folder_b.name, "--report-format", "json")
    assert resumed.returncode == 2, resumed.stderr  # one and three still fail
    assert f"--resume {folder_b.name}: 2 of 3 runs kept, 1 to run" in resumed.stderr
    done = json.loads(resumed.stdout)
    assert [(r["task"], r["status"]) for r in done["results"]] == [
        ("one", "FAIL"), ("three", "FAIL"), ("two", "PASS"),
    ]  # fmt: skip
    assert [r["status"] for r in done["replaced"]] == ["INT"]
    assert Path(done["results"][2]["transcript"]).name == "two.attempt-2.jsonl"
    assert Path(done["replaced"][0]["transcript"]).name == "two.jsonl"


OBSERVER = """
import os

from garuda_evals.hookspecs import hookimpl


def _log(line):
    with open(os.environ["AB_LOG"], "a") as log:
        log.write(line + "\\n")


@hookimpl
def garuda_run_started(run):
    _log(f"started {run.run_id} {run.total}")


@hookimpl
def garuda_task_finished(result):
    _log(f"finished {result.task}#{result.repeat} {result.status}")


@hookimpl
def garuda_run_finished(report):
    _log(f"report {report.run_id} {len(report.results)}")
"""


def test_observers_see_both_arms(coin: Path, fake_dist: Callable[..., Path]) -> None:
    site = fake_dist(
        "garuda-evals-watch",
        {"garuda_evals": {"watch": "watch_plugin"}},
        {"watch_plugin.py": OBSERVER},
    )
    log = coin / "ab.log"
    result = ab(
        coin, "--arm-a", arm(coin, 0.5, "a"), "--arm-b", arm(coin, 0.5, "b"), "--max-repeat", "1",
        env={"PYTHONPATH": str(site), "AB_LOG": str(log)},
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    lines = log.read_text().splitlines()
    assert [line.split()[0] for line in lines].count("started") == 2
    assert sum(line.startswith("finished ") for line in lines) == 6
    assert [line.split()[2] for line in lines if line.startswith("report ")] == ["3", "3"]
