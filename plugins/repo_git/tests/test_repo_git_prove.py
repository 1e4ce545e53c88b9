"""The proof of one candidate, verdict by verdict, with commands that play each case."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from garuda_evals_repo_git import prove
from garuda_evals_repo_git.gitcmd import Commit
from garuda_evals_repo_git.runners import TestCommand

JUNIT = 'printf \'<testsuite><testcase name="t_new"/>%s</testsuite>\' "$EXTRA" > {junit}'


@pytest.fixture
def case(git_repo: Any, tmp_path: Path) -> dict[str, Any]:
    repo = git_repo(tmp_path / "repo")
    parent = repo.commit("start", {"src/a.py": "", "tests/test_old.py": ""})
    sha = repo.commit("fix", {"src/fixed.py": "", "tests/test_new.py": ""})
    candidate = prove.Candidate(
        commit=Commit(sha=sha, parent=parent, subject="fix", message="fix"),
        test_files={"tests/test_new.py": "new test"},
        deleted_tests=[],
        run_files=["tests/test_new.py"],
    )
    return {"repo": repo, "candidate": candidate, "runs": tmp_path / "runs"}


def _prove(case: dict[str, Any], script: str, command: TestCommand | None = None) -> Any:
    """Prove with ``script`` (bash; $RUNS is a file that gets one line per run)."""
    prover = prove.Prover(
        root=case["repo"].root,
        command=command or TestCommand(base=script, kind="custom"),
        env={"PATH": "/usr/bin:/bin", "RUNS": str(case["runs"])},
    )
    return anyio.run(prover.prove, case["candidate"])


def _runs(case: dict[str, Any]) -> list[str]:
    path: Path = case["runs"]
    return path.read_text().split() if path.exists() else []


FIXED = "test -e src/fixed.py"
LOG = 'echo "$(test -e src/fixed.py && echo commit || echo parent)" >> "$RUNS"'


def test_a_real_fix_is_proved_three_times_each_side(case: dict[str, Any]) -> None:
    verdict = _prove(case, f"{LOG}; {JUNIT}; {FIXED}")
    assert verdict.reason is None
    assert verdict.passed_tests == ["t_new"] and verdict.fail_to_pass == []
    # one run per side first: a failing proof ends at its first decisive run
    assert _runs(case) == ["parent", "commit", "commit", "commit", "parent", "parent"]


def test_the_commit_tests_are_given_to_the_parent_only(case: dict[str, Any]) -> None:
    given = 'grep -q "new test" tests/test_new.py && exit 1; exit 0'
    script = f"{LOG}; {JUNIT}; if {FIXED}; then test ! -s tests/test_new.py; else {given}; fi"
    verdict = _prove(case, script)
    assert verdict.reason is None, verdict


def test_tests_that_already_pass_at_the_parent(case: dict[str, Any]) -> None:
    assert _prove(case, f"{LOG}; {JUNIT}").reason == prove.ALREADY_PASS
    assert _runs(case) == ["parent"]


def test_a_parent_that_passes_later_is_flaky(case: dict[str, Any]) -> None:
    script = f'{LOG}; {JUNIT}; {FIXED} || test "$(wc -l < "$RUNS")" -ge 4'
    assert _prove(case, script).reason == prove.FLAKY_PARENT
    assert _runs(case) == ["parent", "commit", "commit", "commit", "parent"]


def test_tests_that_fail_at_the_commit_show_the_tail(case: dict[str, Any]) -> None:
    script = f"{LOG}; seq 1 40; exit 1"
    verdict = _prove(case, script)
    assert verdict.reason == prove.FAIL_AT_COMMIT
    assert verdict.failure_tail == "\n".join(str(n) for n in range(16, 41))
    # no repeat at the parent before the commit's first run has failed
    assert _runs(case) == ["parent", "commit"]


def test_a_commit_that_fails_later_is_flaky(case: dict[str, Any]) -> None:
    script = f'{LOG}; {JUNIT}; {FIXED} && test "$(wc -l < "$RUNS")" -lt 3'
    assert _prove(case, script).reason == prove.FLAKY_COMMIT
    assert _runs(case) == ["parent", "commit", "commit"]


def test_no_passing_test_in_the_report_is_no_evidence(case: dict[str, Any]) -> None:
    assert _prove(case, f"{LOG}; : {{junit}}; {FIXED}").reason == prove.NO_EVIDENCE
    skipped = "printf '<testsuite><testcase name=\"t\"><skipped/></testcase></testsuite>' > {junit}"
    case["runs"].unlink()
    assert _prove(case, f"{LOG}; {skipped}; {FIXED}").reason == prove.NO_EVIDENCE


def test_fail_to_pass_names_the_tests_that_failed_at_the_parent(case: dict[str, Any]) -> None:
    both = (
        "if test -e src/fixed.py; then EXTRA='<testcase name=\"t_b\"/>'; "
        "else EXTRA='<testcase name=\"t_b\"><failure/></testcase>'; fi; export EXTRA"
    )
    verdict = _prove(case, f"{LOG}; {both}; {JUNIT}; {FIXED}")
    assert verdict.reason is None
    assert verdict.fail_to_pass == ["t_b"] and verdict.passed_tests == ["t_b", "t_new"]


def test_no_test_file_to_run(case: dict[str, Any]) -> None:
    case["candidate"].run_files = []
    assert _prove(case, f"{LOG}; {JUNIT}").reason == prove.NO_RUNNABLE
    assert _runs(case) == []


def test_a_check_that_fails_where_the_proof_passed(case: dict[str, Any]) -> None:
    repo = case["repo"]
    # the test imports a module from the checkout's top folder: fine for `python -m pytest`
    # (the working folder is on sys.path), not for the saved check (`-P`)
    parent = repo.commit("top", {"helper.py": "VALUE = 1\n"})
    sha = repo.commit("use", {"helper.py": "VALUE = 2\n", "tests/test_top.py": TOP_TEST})
    case["candidate"] = prove.Candidate(
        commit=Commit(sha=sha, parent=parent, subject="use", message="use"),
        test_files={"tests/test_top.py": TOP_TEST},
        deleted_tests=[],
        run_files=["tests/test_top.py"],
    )
    command = TestCommand(
        base="python -m pytest", kind="pytest", prefix=f"{sys.executable} -m pytest"
    )
    verdict = _prove(case, "", command)
    assert verdict.reason == prove.CHECK_FAILS
    assert "ModuleNotFoundError" in verdict.failure_tail or "No module" in verdict.failure_tail


TOP_TEST = "import helper\n\n\ndef test_top():\n    assert helper.VALUE == 2\n"


def test_a_task_test_in_a_new_folder_is_written_at_the_parent(case: dict[str, Any]) -> None:
    case["candidate"].test_files = {"tests/unit/deep/test_new.py": "new test"}
    given = 'grep -q "new test" tests/unit/deep/test_new.py && exit 1; exit 0'
    script = f"{LOG}; {JUNIT}; if {FIXED}; then exit 0; else {given}; fi"
    assert _prove(case, script).reason is None


def test_a_pytest_fix_is_proved_and_its_check_passes(case: dict[str, Any]) -> None:
    repo = case["repo"]
    parent = repo.commit("calc", {"src/calc.py": "def add(a, b):\n    return a - b\n"})
    sha = repo.commit(
        "fix add",
        {"src/calc.py": "def add(a, b):\n    return a + b\n", "tests/test_calc.py": CALC_TEST},
    )
    case["candidate"] = prove.Candidate(
        commit=Commit(sha=sha, parent=parent, subject="fix add", message="fix add"),
        test_files={"tests/test_calc.py": CALC_TEST},
        deleted_tests=[],
        run_files=["tests/test_calc.py"],
    )
    command = TestCommand(
        base="python -m pytest", kind="pytest", prefix=f"{sys.executable} -m pytest"
    )
    verdict = _prove(case, "", command)
    assert verdict.reason is None, verdict
    assert verdict.fail_to_pass == ["tests.test_calc::test_add"]


def test_the_repeats_stop_at_their_first_failing_test(case: dict[str, Any]) -> None:
    # the first run of each side runs every test (its report names what fails at the
    # parent); a repeat needs only its exit code, so pytest stops at the first failure
    repo = case["repo"]
    marks = case["runs"]
    later = (
        f"def test_later():\n    open({str(marks)!r}, 'a').write('ran\\n')\n"
        "    assert add(2, 3) == 5\n"
    )
    test = CALC_TEST + "\n\n" + later
    parent = repo.commit("calc", {"src/calc.py": "def add(a, b):\n    return a - b\n"})
    sha = repo.commit(
        "fix add", {"src/calc.py": "def add(a, b):\n    return a + b\n", "tests/test_calc.py": test}
    )
    case["candidate"] = prove.Candidate(
        commit=Commit(sha=sha, parent=parent, subject="fix add", message="fix add"),
        test_files={"tests/test_calc.py": test},
        deleted_tests=[],
        run_files=["tests/test_calc.py"],
    )
    command = TestCommand(
        base="python -m pytest", kind="pytest", prefix=f"{sys.executable} -m pytest"
    )
    verdict = _prove(case, "", command)
    assert verdict.reason is None, verdict
    assert verdict.fail_to_pass == ["tests.test_calc::test_add", "tests.test_calc::test_later"]
    # parent: 1 full run, 2 repeats stopped at test_add; commit: 1 run, 1 repeat, the check
    assert _runs(case) == ["ran"] * 4


CALC_TEST = (
    "import sys\nfrom pathlib import Path\n\n"
    "sys.path.insert(0, str(Path(__file__).parents[1] / 'src'))\n"
    "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
)


SUREFIRE = "target/surefire-reports"
SUREFIRE_REPORT = (
    f"mkdir -p {SUREFIRE} && "
    f"printf '<testsuite><testcase name=\"t_new\"/></testsuite>' > {SUREFIRE}/TEST-new.xml"
)


def test_a_whole_suite_runner_is_read_from_its_report_folder(case: dict[str, Any]) -> None:
    command = TestCommand(base="mvn test", kind="maven", prefix=f"{SUREFIRE_REPORT}; {FIXED}")
    verdict = _prove(case, "", command)
    assert verdict.reason is None
    assert verdict.passed_tests == ["t_new"]


def test_reports_committed_in_the_report_folder_are_not_evidence(
    git_repo: Any, tmp_path: Path
) -> None:
    repo = git_repo(tmp_path / "repo")
    parent = repo.commit("start", {"src/a.py": ""})
    old = '<testsuite><testcase name="t_old"/></testsuite>'
    sha = repo.commit("fix", {"src/fixed.py": "", f"{SUREFIRE}/TEST-old.xml": old})
    case = {
        "repo": repo,
        "candidate": prove.Candidate(
            commit=Commit(sha=sha, parent=parent, subject="fix", message="fix"),
            test_files={"tests/TestNew.java": "new test"},
            deleted_tests=[],
            run_files=["tests/TestNew.java"],
        ),
        "runs": tmp_path / "runs",
    }
    # the run writes no report: the folder's committed one must not count
    verdict = _prove(case, "", TestCommand(base="mvn test", kind="maven", prefix=FIXED))
    assert verdict.reason == prove.NO_EVIDENCE


def test_the_probe_reports_its_own_duration(case: dict[str, Any]) -> None:
    prover = prove.Prover(
        root=case["repo"].root, command=TestCommand(base=JUNIT, kind="custom"), env={}
    )
    started = time.monotonic()
    probe = anyio.run(prover.probe, case["candidate"].commit.sha, ["tests/test_new.py"], [])
    elapsed = time.monotonic() - started
    assert (probe.found, probe.passed, probe.exit_code) == (1, 1, 0)
    assert 0 <= probe.seconds <= elapsed


def _vitest_like(cases: str) -> str:
    """A bash function that writes ``cases`` to the report vitest's flags name, then exits
    0 only at the commit."""
    return (
        "run() { for a; do case $a in --outputFile.junit=*) r=${a#*=};; esac; done; "
        f"printf '<testsuite>{cases}</testsuite>' > \"$r\"; {FIXED}; }}; run"
    )


def test_the_passed_tests_are_those_the_check_reports(case: dict[str, Any]) -> None:
    # the package script (the proof) runs an extra test case; the check, the runner
    # called directly as the judge will call it, does not: the task keeps the check's list
    command = TestCommand(
        base=_vitest_like('<testcase name="t_new"/><testcase name="t_script"/>'),
        kind="vitest",
        prefix=_vitest_like('<testcase name="t_new"/>'),
        wrapper="yarn",
    )
    verdict = _prove(case, "", command)
    assert verdict.reason is None
    assert verdict.passed_tests == ["t_new"]
