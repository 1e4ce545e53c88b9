"""``garuda compare``: paired differences, the exact test, the verdict, refusals and --json."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from garuda_evals.errors import GarudaError
from garuda_evals.models.report import ExecutorRecord, Report
from garuda_evals.models.result import Status, TaskResult
from garuda_evals.models.settings import RunSettings
from garuda_evals.models.usage import Usage
from garuda_evals.report.compare import compare_reports, render, setting_differences
from garuda_evals.report.summary import summarize, task_means
from garuda_evals.stats import paired

P, F, E = Status.PASS, Status.FAIL, Status.ERR


def report(
    run_id: str,
    statuses: dict[str, list[Status]],
    *,
    steps: int = 10,
    options: dict[str, object] | None = None,
    agent: dict[str, str] | None = None,
    toolchains: dict[str, dict[str, str]] | None = None,
    versions: dict[str, str] | None = None,
) -> Report:
    """A report as the runner builds it, from each task's statuses in repeat order."""
    results = [
        TaskResult(
            task=task,
            suite="s",
            repeat=i + 1,
            status=status,
            steps=steps + i,
            usage=Usage(input_tokens=100 * steps, output_tokens=10, cost_usd=0.001 * steps),
            duration_ms=1000 * steps,
        )
        for task, runs in statuses.items()
        for i, status in enumerate(runs)
    ]
    repeat = max(len(runs) for runs in statuses.values())
    built = Report(
        run_id=run_id,
        started_at="",
        finished_at="",
        wall_ms=0,
        settings=RunSettings(repeat=repeat, options={"agent": options or {}}),
        agent=agent or {"agent": "garuda", "model": "m1"},
        executor=ExecutorRecord(name="bwrap", kind="os"),
        versions={"garuda-evals": "0.1"},
        toolchains=toolchains or {},
        summary=summarize(results),
        tasks=task_means(results),
        results=results,
    )
    for mean in built.tasks:
        mean.task_version = (versions or {}).get(mean.task, "v1")
    return built


def test_sign_test_is_the_exact_binomial() -> None:
    assert paired.sign_test(0, 0) == 1.0
    assert paired.sign_test(5, 0) == pytest.approx(2 / 32)
    assert paired.sign_test(0, 6) == pytest.approx(2 / 64)
    assert paired.sign_test(3, 3) == 1.0
    assert paired.sign_test(9, 1) == pytest.approx(2 * 11 / 1024)


def test_bootstrap_is_seeded_and_brackets_the_mean() -> None:
    groups = [([0.0, 1.0, 0.0], [1.0, 1.0, 1.0]), ([1.0, 1.0], [1.0, 0.0]), ([0.0], [1.0])]
    first = paired.bootstrap_interval(groups)
    assert first == paired.bootstrap_interval(groups)
    assert first[0] <= paired.mean_difference(groups) <= first[1]
    # repeats that disagree widen the interval even when the task means are the same
    steady = [([0.0, 0.0], [1.0, 1.0])] * 3
    assert paired.bootstrap_interval(steady) == (1.0, 1.0)
    with pytest.raises(ValueError):
        paired.bootstrap_interval([([], [1.0])])


def test_bootstrap_interval_covers_the_true_difference_in_simulation() -> None:
    rng = random.Random(7)
    truth = 0.2
    hits, trials = 0, 40
    for _ in range(trials):
        groups = []
        for _task in range(12):
            base = rng.random() * 0.6
            a = [float(rng.random() < base) for _ in range(3)]
            b = [float(rng.random() < base + truth) for _ in range(3)]
            groups.append((a, b))
        low, high = paired.bootstrap_interval(groups, resamples=300, seed=rng.randrange(10**6))
        hits += low <= truth <= high
    assert hits / trials >= 0.85


def test_pairs_needed_grows_with_noise_and_shrinks_with_the_difference() -> None:
    assert paired.pairs_needed(0.1, 0.3) > paired.pairs_needed(0.1, 0.1)
    assert paired.pairs_needed(0.2, 0.3) < paired.pairs_needed(0.1, 0.3)
    # the classic figure: 10 points with 20% discordant pairs needs about 155 pairs
    assert 150 <= paired.pairs_needed(0.1, 0.2) <= 160


def test_verdict_in_words_when_b_passes_more() -> None:
    tasks = {f"t{i}": [F, F, F] for i in range(6)}
    better = {f"t{i}": [P, P, F] for i in range(6)}
    comparison = compare_reports(
        report("a", tasks), report("b", better, options={"keep_thinking": False})
    )
    assert comparison.significant
    assert comparison.b_only_passes == 12 and comparison.a_only_passes == 0
    assert comparison.verdict.startswith("B passes more: B − A +67 points, 95% CI +")
    assert "12 discordant run pair(s): p = 0.000488" in comparison.verdict
    text = render(comparison, report("a", tasks), report("b", better))
    assert (
        "task  A pass          B pass            Δ pass  Δ steps  Δ tokens  Δ cost   Δ time" in text
    )
    assert (
        "s/t0  0/3 0% (0–56%)  2/3 67% (21–94%)  +67     +0.0     +0        +$0.000  +0.0s" in text
    )
    assert "keep-thinking: unset -> off" in text
    assert text.count("keep-thinking") == 1


def test_no_detectable_difference_on_noise() -> None:
    a = report("a", {"x": [P, F, P], "y": [F, P, F]})
    b = report("b", {"x": [F, P, P], "y": [P, F, F]})
    comparison = compare_reports(a, b)
    assert not comparison.significant
    assert comparison.verdict.startswith("no detectable difference in pass rate: B − A +0 points")
    assert comparison.power.startswith("power: to detect a 10-point difference in pass rate")
    assert "repeat(s) per task" in comparison.power


def test_steps_tokens_cost_and_time_are_paired() -> None:
    a = report("a", {"x": [P, P], "y": [P, P]}, steps=10)
    b = report("b", {"x": [P, P], "y": [P, P]}, steps=14)
    comparison = compare_reports(a, b)
    by_name = {m.metric: m for m in comparison.metrics}
    assert by_name["steps"].difference == pytest.approx(4.0)
    low, high = by_name["steps"].interval or (0, 0)
    assert 3 <= low < 4 < high <= 5  # the repeats' steps differ (10, 11): the interval is wider
    assert by_name["cost_usd"].difference == pytest.approx(0.004)
    assert by_name["duration_ms"].difference == pytest.approx(4000)
    assert by_name["tokens"].difference == pytest.approx(400)
    assert comparison.tasks[0].steps_difference == pytest.approx(4.0)


def test_unknown_usage_is_unknown_not_zero() -> None:
    a = report("a", {"x": [P]})
    b = report("b", {"x": [P]})
    b.results[0].usage = Usage(cost_usd=0.0, cost_incomplete=True, tokens_known=False)
    comparison = compare_reports(a, b)
    by_name = {m.metric: m for m in comparison.metrics}
    assert by_name["cost_usd"].difference is None and by_name["tokens"].difference is None
    assert comparison.tasks[0].cost_usd_difference is None


def test_a_known_cost_too_small_to_show_is_never_printed_as_zero() -> None:
    a = report("a", {"x": [P]}, steps=0)
    b = report("b", {"x": [P]})
    a.results[0].usage = Usage(input_tokens=30, output_tokens=2, cost_usd=0.00004)
    text = render(compare_reports(a, b), a, b)
    (cost,) = [line for line in text.splitlines() if line.startswith("cost ")]
    assert cost.split()[1:3] == ["<$0.001", "$0.010"], cost


def test_every_difference_is_printed_once_in_words() -> None:
    a = report("a", {"x": [P]}, agent={"agent": "garuda", "model": "m1"})
    b = report("b", {"x": [P]}, agent={"agent": "garuda", "model": "m2"})
    b.settings.agent = "garuda"
    b.executor = ExecutorRecord(name="host", kind="host")
    b.versions = {"garuda-evals": "0.2"}
    lines = setting_differences(a, b)
    assert lines == [
        "agent: unset -> garuda",
        "agent model: m1 -> m2",
        "executor used: bwrap -> host",
        "garuda-evals version: 0.1 -> 0.2",
    ]
    assert not any("{" in line for line in lines)


@pytest.mark.parametrize(
    ("b_kwargs", "b_tasks", "message"),
    [
        ({}, {"x": [P], "z": [P]}, "tasks only in A: s/y; tasks only in B: s/z"),
        ({"versions": {"y": "v2"}}, {"x": [P], "y": [P]}, "task definitions differ"),
        (
            {"toolchains": {"pytest": {"version": "8.2"}}},
            {"x": [P], "y": [P]},
            "toolchain pytest: 8.1 -> 8.2",
        ),
    ],
)
def test_runs_that_measure_different_things_are_refused(
    b_kwargs: dict[str, object], b_tasks: dict[str, list[Status]], message: str
) -> None:
    a = report("a", {"x": [P], "y": [P]}, toolchains={"pytest": {"version": "8.1"}})
    b_kwargs.setdefault("toolchains", {"pytest": {"version": "8.1"}})
    b = report("b", b_tasks, **b_kwargs)  # type: ignore[arg-type]
    with pytest.raises(GarudaError, match=message):
        compare_reports(a, b)
    forced = compare_reports(a, b, force=True)
    assert forced.forced and any(
        message.split(";")[0] in line for line in forced.measure_differences
    )
    assert "compared with --force" in render(forced, a, b)


GARUDA = [sys.executable, "-c", "from garuda_evals.cli.main import entry; entry()"]


def _save(folder: Path, built: Report) -> Path:
    folder.mkdir(parents=True)
    (folder / "report.json").write_text(json.dumps(built.to_json_dict()))
    return folder


def test_compare_cli_refuses_forces_and_prints_json(tmp_path: Path) -> None:
    a = _save(tmp_path / "a", report("a", {"x": [F, F, F], "y": [F, F, F]}))
    b = _save(tmp_path / "b", report("b", {"x": [P, P, P], "z": [P, P, P]}))

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*GARUDA, "compare", *args], capture_output=True, text=True, env=dict(os.environ)
        )

    refused = run(str(a), str(b))
    assert refused.returncode == 1
    assert refused.stderr.strip() == (
        "garuda: error: the runs measure different things (--force compares them anyway): "
        "tasks only in A: s/y; tasks only in B: s/z"
    )
    forced = run(str(a), str(b), "--force", "--json")
    assert forced.returncode == 0, forced.stderr
    data = json.loads(forced.stdout)
    assert data["onlyInA"] == ["s/y"] and data["onlyInB"] == ["s/z"]
    assert [t["task"] for t in data["tasks"]] == ["s/x"]
    assert data["bOnlyPasses"] == 3 and data["pValue"] == pytest.approx(0.25)
    assert data["verdict"].startswith("no detectable difference")


def test_the_agent_command_is_not_printed_twice() -> None:
    a = report("a", {"x": [P]}, agent={"agent": "command", "command": "run-a"})
    b = report("b", {"x": [P]}, agent={"agent": "command", "command": "run-b"})
    a.settings.agent_command, b.settings.agent_command = "run-a", "run-b"
    assert setting_differences(a, b) == ["agent-command: run-a -> run-b"]
