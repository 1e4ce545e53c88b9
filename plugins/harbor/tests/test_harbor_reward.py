"""The reward file as evidence: reward.txt, reward.json, none, JUnit beside a full reward."""

from __future__ import annotations

from pathlib import Path

import pytest

from garuda_evals_harbor.paths import prompt_text, rewrite
from garuda_evals_harbor.reward import read_evidence

FAILED_JUNIT = (
    '<testsuites><testsuite name="pytest"><testcase classname="tests.t" name="test_a"/>'
    '<testcase classname="tests.t" name="test_b"><failure message="no"/></testcase>'
    "</testsuite></testsuites>"
)


def _write(folder: Path, **files: str) -> Path:
    for name, text in files.items():
        (folder / name.replace("_", ".", 1)).write_text(text)
    return folder


@pytest.mark.parametrize(
    ("files", "minimum", "outcomes"),
    [
        ({"reward_txt": "1\n"}, 1.0, {"reward": "passed"}),
        ({"reward_txt": "0"}, 1.0, {"reward": "failed"}),
        ({"reward_txt": "0.5"}, 0.5, {"reward": "passed"}),
        ({"reward_txt": "0.49"}, 0.5, {"reward": "failed"}),
        ({"reward_txt": "1", "reward_json": '{"reward": 0}'}, 1.0, {"reward": "passed"}),
        (
            {"reward_json": '{"accuracy": 1, "style": 0.5}'},
            1.0,
            {"accuracy": "passed", "style": "failed"},
        ),
    ],
)
def test_each_reward_is_a_case_passed_at_the_minimum(
    tmp_path: Path, files: dict[str, str], minimum: float, outcomes: dict[str, str]
) -> None:
    evidence = read_evidence(_write(tmp_path, **files), minimum)
    assert {case.id: case.outcome for case in evidence.cases} == outcomes


@pytest.mark.parametrize(
    ("files", "detail"),
    [
        ({}, "no reward file was written (/logs/verifier/reward.txt or reward.json)"),
        ({"reward_txt": ""}, "reward.txt holds no number ('')"),
        ({"reward_txt": "PASS"}, "reward.txt holds no number ('PASS')"),
        ({"reward_txt": "nan"}, "reward.txt holds no number ('nan')"),
        ({"reward_json": "[1]"}, "reward.json is not an object of named rewards"),
        ({"reward_json": '{"reward": true}'}, "reward.json: reward is not a number"),
        ({"reward_json": "{"}, "reward.json is not JSON"),
    ],
)
def test_no_readable_reward_is_no_evidence(
    tmp_path: Path, files: dict[str, str], detail: str
) -> None:
    evidence = read_evidence(_write(tmp_path, **files), 1.0)
    assert evidence.tests_ran is None and evidence.detail.startswith(detail), evidence.detail


def test_a_junit_failure_beside_a_full_reward_is_a_failed_case(tmp_path: Path) -> None:
    evidence = read_evidence(_write(tmp_path, reward_txt="1", **{"junit.xml": FAILED_JUNIT}), 1.0)
    assert {case.id: case.outcome for case in evidence.cases} == {
        "reward": "passed",
        "junit tests.t::test_a": "passed",
        "junit tests.t::test_b": "failed",
    }
    partial = read_evidence(tmp_path, 0.5)
    assert [case.id for case in partial.cases] == ["reward"], (
        "below a full reward, JUnit is not judged"
    )


def test_container_paths_are_rewritten_whole() -> None:
    text = 'cd /app && cat "/app/x" /apple x/app /app.py /tests/t.py /logs/verifier/r'
    assert rewrite(text, {"/app": "/w", "/tests": "/t", "/logs": "/l"}) == (
        'cd /w && cat "/w/x" /apple x/app /app.py /t/t.py /l/verifier/r'
    )
    assert prompt_text("Edit /app/main.py in /app.", "/app").endswith("Edit ./main.py in ..")
