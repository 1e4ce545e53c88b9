"""Evidence from ``go test -json``, read from streams the real go command wrote."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from garuda_evals import api
from garuda_evals.checks.gotest import GoTestCheckRunner, parse_go_test_json
from garuda_evals.executors.base import CommandResult
from garuda_evals.testing import skip_or_fail

DATA = Path(__file__).parent / "suite_data" / "gostream"
GO_ENV = {"GOFLAGS": "-mod=mod", "GOPROXY": "off", "GOTOOLCHAIN": "local"}


@pytest.fixture(scope="module")
def stream(tmp_path_factory: pytest.TempPathFactory) -> str:
    """What ``go test -json ./...`` wrote for a module of passing, failing, broken packages."""
    if shutil.which("go") is None:
        skip_or_fail("go", "install Go so that `go` is on PATH")
    module = tmp_path_factory.mktemp("gostream") / "m"
    shutil.copytree(DATA, module)
    done = subprocess.run(
        ["go", "test", "-json", "./..."],
        cwd=module,
        env={**os.environ, **GO_ENV},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    return done.stdout + done.stderr


def outcomes(text: str) -> dict[str, str]:
    return {case.id: case.outcome for case in parse_go_test_json(text).cases}


def test_tests_and_subtests_are_read_with_their_outcomes(stream: str) -> None:
    found = outcomes(stream)
    assert found["example.com/m/a/TestPass"] == "passed"
    assert found["example.com/m/a/TestFail"] == "failed"
    assert found["example.com/m/a/TestSkip"] == "skipped"
    assert found["example.com/m/a/TestSub"] == "failed"
    assert found["example.com/m/a/TestSub/one_case"] == "passed"
    assert found["example.com/m/a/TestSub/two"] == "failed"
    evidence = parse_go_test_json(stream)
    assert (evidence.tests_ran, evidence.failed, evidence.skipped) == (7, 5, 1)


def test_printed_pass_lines_and_fake_events_are_output_not_results(stream: str) -> None:
    assert "--- PASS: TestFake" in stream
    assert not any("TestFake" in case_id for case_id in outcomes(stream))


def test_a_build_failure_is_a_failed_case_with_the_compiler_message(stream: str) -> None:
    case = next(c for c in parse_go_test_json(stream).cases if c.id == "example.com/m/b")
    assert case.outcome == "failed"
    assert "did not build" in case.message
    assert "undefined: undefined" in case.message


def test_exit_zero_at_init_reports_no_case_and_an_unfinished_test_fails(stream: str) -> None:
    found = outcomes(stream)
    assert not any(case_id.startswith("example.com/m/c") for case_id in found)
    assert found["example.com/m/d/TestZ"] == "failed"
    assert "example.com/m/d/TestW" not in found
    assert "example.com/m/d" not in found


def test_failure_messages_keep_the_test_output_without_framing(stream: str) -> None:
    cases = {case.id: case for case in parse_go_test_json(stream).cases}
    assert cases["example.com/m/a/TestFail"].message == "a_test.go:15: boom"
    assert "never finished" in cases["example.com/m/d/TestZ"].message


def test_a_build_failure_without_build_events_is_still_a_failed_package() -> None:
    # go before 1.24 printed build errors on stderr and gave the package no FailedBuild.
    text = (
        "# example.com/m/b\nb/b.go:3:1: syntax error\n"
        '{"Action":"start","Package":"example.com/m/b"}\n'
        '{"Action":"output","Package":"example.com/m/b","Output":"FAIL\\texample.com/m/b [build failed]\\n"}\n'
        '{"Action":"fail","Package":"example.com/m/b","Elapsed":0}\n'
    )
    evidence = parse_go_test_json(text)
    assert [(c.id, c.outcome) for c in evidence.cases] == [("example.com/m/b", "failed")]
    assert "build failed" in evidence.cases[0].message


def test_text_without_events_is_no_evidence() -> None:
    evidence = parse_go_test_json("--- PASS: TestA (0.00s)\nok  \texample.com/m\t0.1s\n{not json\n")
    assert evidence.tests_ran is None
    assert "no go test -json events" in evidence.detail


def test_the_runner_reads_a_fresh_report_file_at_gojson(tmp_path: Path, stream: str) -> None:
    runner = GoTestCheckRunner()
    stale = tmp_path / ".garuda-check" / "old.json"
    stale.parent.mkdir()
    stale.write_text(stream)
    plan = runner.plan("go test -json ./tests/... > {gojson}", tmp_path)
    assert not stale.exists()
    (report,) = plan.evidence_paths
    assert plan.command == f"go test -json ./tests/... > {report}"
    assert report.parent == tmp_path / ".garuda-check"
    ok = CommandResult(exit_code=0, output="", timed_out=False, duration_ms=1)
    assert runner.evidence(plan, tmp_path, ok).tests_ran is None
    report.write_text(stream)
    assert runner.evidence(plan, tmp_path, ok).tests_ran == 7
    second = runner.plan("go test -json ./tests/... > {gojson}", tmp_path)
    assert second.evidence_paths != plan.evidence_paths


def test_the_runner_reads_the_output_without_a_placeholder(tmp_path: Path, stream: str) -> None:
    runner = GoTestCheckRunner()
    plan = runner.plan("go test -json ./tests/...", tmp_path)
    assert plan.evidence_paths == ()
    whole = CommandResult(exit_code=1, output=stream, timed_out=False, duration_ms=1)
    assert runner.evidence(plan, tmp_path, whole).tests_ran == 7
    cut = CommandResult(exit_code=1, output=stream, timed_out=False, duration_ms=1, truncated=True)
    assert runner.evidence(plan, tmp_path, cut).tests_ran is None
    assert runner.failure_summary(whole) == "FAIL example.com/m/a/TestFail: a_test.go:15: boom"


def test_plugins_reach_the_parser_and_runner_through_the_api() -> None:
    assert api.parse_go_test_json is parse_go_test_json
    assert api.GoTestCheckRunner is GoTestCheckRunner
