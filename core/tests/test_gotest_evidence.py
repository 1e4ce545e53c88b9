"""Evidence from ``go test -json``, read from streams the real go command wrote."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from garuda_evals import api
from garuda_evals.checks.gotest import (
    CANARY_FILES,
    PACKAGE_FAILED,
    GoTestCheckRunner,
    parse_go_test_json,
    plan_go_canaries,
)
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


def go_module(root: Path) -> Path:
    """A module whose task tests live in a protected ``tests/`` package."""
    (root / "tests").mkdir(parents=True)
    (root / "go.mod").write_text("module example.com/m\n\ngo 1.21\n")
    (root / "calc.go").write_text("package m\n\nfunc Add(a, b int) int { return a + b }\n")
    (root / "tests" / "calc_test.go").write_text(
        'package tests\n\nimport (\n\t"testing"\n\n\tm "example.com/m"\n)\n\n'
        "func TestAdd(t *testing.T) {\n\tif m.Add(2, 3) != 5 {\n\t\tt.Fatal(m.Add(2, 3))\n\t}\n}\n"
    )
    return root


def test_canaries_go_beside_the_task_tests_and_come_out_as_planted(
    tmp_path: Path, stream: str
) -> None:
    module = go_module(tmp_path / "m")
    planned = plan_go_canaries(module, ["tests/"], "nonce-123")
    assert planned is not None
    assert planned.relative.startswith("tests/") and planned.relative.endswith("_test.go")
    assert planned.text.startswith("package tests\n")
    assert planned.must_fail.startswith("example.com/m/tests/Test")
    (module / planned.relative).write_text(planned.text)
    done = subprocess.run(
        ["go", "test", "-count=1", "-json", "./tests/..."],
        cwd=module,
        env={**os.environ, **GO_ENV},
        capture_output=True,
        text=True,
        check=False,
    )
    cases = {case.id: case for case in parse_go_test_json(done.stdout).cases}
    assert cases[planned.must_fail].outcome == "failed"
    assert "nonce-123" in cases[planned.must_fail].message
    assert cases[planned.must_pass].outcome == "passed"
    assert cases["example.com/m/tests/TestAdd"].outcome == "passed"
    assert plan_go_canaries(module, ["other/"], "n") is None


def _run_go_tests(module: Path) -> dict[str, str]:
    done = subprocess.run(
        ["go", "test", "-count=1", "-json", "./..."],
        cwd=module,
        env={**os.environ, **GO_ENV},
        capture_output=True,
        text=True,
        check=False,
    )
    return outcomes(done.stdout)


def test_the_canary_file_never_takes_the_name_of_a_test_file(tmp_path: Path, stream: str) -> None:
    module = go_module(tmp_path / "m")
    tests = module / "tests"
    taken = {}
    for word in CANARY_FILES[:-1]:
        name = f"Test{word.capitalize()}File"
        taken[f"{word}_test.go"] = (
            f'package tests\n\nimport "testing"\n\nfunc {name}(t *testing.T) {{}}\n'
        )
        (tests / f"{word}_test.go").write_text(taken[f"{word}_test.go"])
    planned = plan_go_canaries(module, ["tests/"], "nonce-1")
    assert planned is not None
    assert planned.relative.startswith("tests/") and planned.relative.endswith("_test.go")
    assert planned.relative == f"tests/{CANARY_FILES[-1]}_test.go"  # the one name left
    (module / planned.relative).write_text(planned.text)
    found = _run_go_tests(module)
    for word in CANARY_FILES[:-1]:
        assert (tests / f"{word}_test.go").read_text() == taken[f"{word}_test.go"]
        assert found[f"example.com/m/tests/Test{word.capitalize()}File"] == "passed"
    assert found["example.com/m/tests/TestAdd"] == "passed"
    assert (found[planned.must_fail], found[planned.must_pass]) == ("failed", "passed")


def test_a_canary_file_at_the_module_root_takes_a_free_name(tmp_path: Path) -> None:
    module = tmp_path / "m"
    module.mkdir()
    (module / "go.mod").write_text("module example.com/m\n\ngo 1.21\n")
    for word in CANARY_FILES:
        (module / f"{word}_test.go").write_text("package m\n")
    planned = plan_go_canaries(module, [f"{word}_test.go" for word in CANARY_FILES], "n")
    assert planned is not None
    assert "/" not in planned.relative and planned.relative.endswith("_test.go")
    assert not (module / planned.relative).exists()
    assert planned.must_fail.startswith("example.com/m/Test")


def test_a_canary_package_that_did_not_build_fails_for_the_build(tmp_path: Path) -> None:
    from garuda_evals.models.task import CheckSpec, Task

    module = go_module(tmp_path / "m")
    task = Task(
        id="t",
        title="t",
        prompt="p",
        check=CheckSpec(command="go test -json ./tests/...", runner="go-test"),
        protected=["tests/"],
    )
    runner = GoTestCheckRunner()
    canaries = runner.canaries(task, module, "nonce-9")
    assert canaries is not None
    built_badly = (
        '{"Action":"fail","Package":"example.com/m/tests","FailedBuild":"example.com/m"}\n'
    )
    plan = runner.plan(task.check.command, module)
    failed = CommandResult(exit_code=1, output=built_badly, timed_out=False, duration_ms=1)
    cases = {case.id: case for case in runner.evidence(plan, module, failed).cases}
    assert cases["example.com/m/tests"].outcome == "failed"
    assert cases[canaries.must_fail].outcome == "failed"
    assert "nonce-9" in cases[canaries.must_fail].message
    again = runner.canaries(task, module, "nonce-10")
    assert again is not None
    crashed = '{"Action":"fail","Package":"example.com/m/tests"}\n'
    result = CommandResult(exit_code=1, output=crashed, timed_out=False, duration_ms=1)
    plan = runner.plan(task.check.command, module)
    # A package that failed without a build failure gets no stand-ins: the canary is missing.
    assert again.must_fail not in {c.id for c in runner.evidence(plan, module, result).cases}


def _event(action: str, test: str | None = None, **more: object) -> str:
    fields: dict[str, object] = {"Action": action, "Package": "example.com/m/p", **more}
    if test is not None:
        fields["Test"] = test
    return json.dumps(fields) + "\n"


def test_a_test_reported_twice_keeps_its_worst_outcome() -> None:
    """``go test -count=2`` reports each test once per run."""
    text = (
        _event("pass", "TestPassThenSkip")
        + _event("skip", "TestPassThenSkip")
        + _event("skip", "TestSkipThenFail")
        + _event("fail", "TestSkipThenFail")
        + _event("skip", "TestSkipThenPass")
        + _event("pass", "TestSkipThenPass")
        + _event("fail", "TestFailThenPass")
        + _event("pass", "TestFailThenPass")
    )
    assert outcomes(text) == {
        "example.com/m/p/TestPassThenSkip": "skipped",
        "example.com/m/p/TestSkipThenFail": "failed",
        "example.com/m/p/TestSkipThenPass": "skipped",
        "example.com/m/p/TestFailThenPass": "failed",
    }


def test_lines_that_are_not_events_are_passed_over_not_read_as_events() -> None:
    text = (
        "{not json\n"
        + '{"Output": "no action"}\n'
        + '{"Action": 5, "Package": "example.com/m/p"}\n'
        + _event("pass", "TestA")
    )
    assert outcomes(text) == {"example.com/m/p/TestA": "passed"}
    assert parse_go_test_json('{"Output": "no action"}\n').tests_ran is None


def test_an_event_with_an_empty_test_name_belongs_to_its_package() -> None:
    text = _event("output", "", Output="panic: in TestMain\n") + _event("fail", "")
    evidence = parse_go_test_json(text)
    assert [(case.id, case.outcome) for case in evidence.cases] == [("example.com/m/p", "failed")]
    assert evidence.cases[0].message == f"{PACKAGE_FAILED}\npanic: in TestMain"


def test_only_output_events_add_output_and_only_results_set_outcomes() -> None:
    text = (
        _event("output", Output=None)
        + _event("fail", Output="not output\n")
        + _event("output", "TestA", Output=None)
        + _event("pass", "TestA", Output="not output either\n")
    )
    evidence = parse_go_test_json(text)
    cases = {case.id: case for case in evidence.cases}
    assert (cases["example.com/m/p/TestA"].outcome, cases["example.com/m/p/TestA"].message) == (
        "passed",
        "",
    )
    assert cases["example.com/m/p"].outcome == "failed"
    assert cases["example.com/m/p"].message == f"{PACKAGE_FAILED}\n"  # no output of its own


def _test_file(path: Path, package: str = "tests") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'package {package}\n\nimport "testing"\n\nfunc TestX(t *testing.T) {{}}\n')


def test_canaries_go_to_the_folder_with_most_tests_not_counting_links_or_testdata(
    tmp_path: Path,
) -> None:
    module = tmp_path / "m"
    module.mkdir()
    (module / "go.mod").write_text("module example.com/m\n\ngo 1.21\n")
    _test_file(module / "tests" / "a_test.go")
    _test_file(module / "tests" / "b_test.go")
    for name in ("c", "d", "e"):
        _test_file(module / "tests" / "testdata" / "deep" / f"{name}_test.go", "deep")
        _test_file(module / "tests" / "vendor" / f"{name}_test.go", "vendored")
        (module / "tests" / "linked").mkdir(exist_ok=True)
        (module / "tests" / "linked" / f"{name}_test.go").symlink_to(module / "tests" / "a_test.go")
    planned = plan_go_canaries(module, ["tests/"], "n")
    assert planned is not None
    assert planned.relative.rpartition("/")[0] == "tests"
    _test_file(module / "tests" / "more" / "f_test.go", "more")  # below tests/, seen after it
    for name in ("g", "h"):
        _test_file(module / "tests" / "more" / f"{name}_test.go", "more")
    planned = plan_go_canaries(module, ["tests/"], "n")
    assert planned is not None and planned.relative.rpartition("/")[0] == "tests/more"
    assert planned.text.startswith("package more\n")


def test_a_linked_test_file_is_passed_over_without_ending_the_search(tmp_path: Path) -> None:
    module = go_module(tmp_path / "m")
    (module / "a_link_test.go").symlink_to(module / "tests" / "calc_test.go")
    planned = plan_go_canaries(module, ["tests/"], "n")
    assert planned is not None and planned.relative.startswith("tests/")


def test_a_changed_file_under_vendor_is_refused(tmp_path: Path) -> None:
    from garuda_evals.models.task import CheckSpec, Task

    task = Task(
        id="t", title="t", prompt="p", check=CheckSpec(command="go test ./...", runner="go-test")
    )
    changed = ["vendor/modules.txt", "lib/vendor/x/y.go", "src/vendor", "vendored/a.go", "a.go"]
    refused = GoTestCheckRunner().refusals(task, tmp_path, changed)
    assert refused == [
        "vendor/modules.txt is under vendor/, which decides the code an import builds from",
        "lib/vendor/x/y.go is under vendor/, which decides the code an import builds from",
    ]
