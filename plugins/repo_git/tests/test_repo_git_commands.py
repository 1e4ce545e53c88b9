"""Test commands: detection, scoping per runner, the direct check, and the give-away filter."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from garuda_evals.errors import UsageError
from garuda_evals.executors.base import CommandResult
from garuda_evals_repo_git.detect import detect
from garuda_evals_repo_git.prompt import clean_message
from garuda_evals_repo_git.reports import JestJsonCheckRunner, fail_to_pass, read_results
from garuda_evals_repo_git.rules import dependency_change, is_doc_path, is_test_path
from garuda_evals_repo_git.runners import classify

FILES = ["test/a.test.js", "test/b c.test.js"]


def _package(script: str) -> str:
    return json.dumps({"scripts": {"test": script}})


@pytest.mark.parametrize(
    ("command", "script", "proof"),
    [
        (
            "npm test",
            "node --test",
            "npm test -- --test-reporter=spec --test-reporter-destination=stdout "
            "--test-reporter=junit '--test-reporter-destination={junit}' test/a.test.js "
            "'test/b c.test.js'",
        ),
        (
            "npm test",
            "jest --coverage",
            "npm test -- --ci --json '--outputFile={junit}' test/a.test.js 'test/b c.test.js'",
        ),
        (
            "node --test {files}",
            None,
            "node --test --test-reporter=spec --test-reporter-destination=stdout "
            "--test-reporter=junit '--test-reporter-destination={junit}' test/a.test.js "
            "'test/b c.test.js'",
        ),
        (
            "npx vitest {files}",
            None,
            "npx vitest run --no-cache --reporter=default --reporter=junit "
            "'--outputFile.junit={junit}' test/a.test.js 'test/b c.test.js'",
        ),
        (
            "uv run pytest {files}",
            None,
            "uv run pytest -p no:cacheprovider '--junitxml={junit}' test/a.test.js "
            "'test/b c.test.js'",
        ),
        (
            "node --test",
            None,
            "node --test --test-reporter=spec --test-reporter-destination=stdout "
            "--test-reporter=junit '--test-reporter-destination={junit}' test/a.test.js "
            "'test/b c.test.js'",
        ),
        (
            "npx vitest",
            None,
            "node_modules/.bin/vitest run --no-cache --reporter=default --reporter=junit "
            "'--outputFile.junit={junit}' test/a.test.js 'test/b c.test.js'",
        ),
        (
            "npx jest",
            None,
            "node_modules/.bin/jest --ci --json '--outputFile={junit}' test/a.test.js "
            "'test/b c.test.js'",
        ),
        (
            "mocha {files}",
            None,
            "mocha --reporter xunit --reporter-option 'output={junit}' test/a.test.js "
            "'test/b c.test.js'",
        ),
        (
            "mocha --reporter xunit --reporter-option output={junit} {files}",
            None,
            "mocha --reporter xunit --reporter-option output={junit} test/a.test.js "
            "'test/b c.test.js'",
        ),
    ],
)
def test_scoped_proof_per_runner(command: str, script: str | None, proof: str) -> None:
    tc = classify(command, _package(script) if script else None)
    assert tc.proof(FILES) == proof


@pytest.mark.parametrize(
    ("command", "flag"),
    [
        ("python -m pytest", " -x "),
        ("npx jest", " --bail "),
        ("npx vitest", " --bail=1 "),
        ("mocha {files}", " --bail "),
        ("go test ./...", " -failfast "),
        ("node --test", None),
        ("./run {junit} {files}", None),
    ],
)
def test_a_repeat_stops_at_its_first_failure_where_the_runner_can(
    command: str, flag: str | None
) -> None:
    """A repeat's proof is the proof with the runner's stop-at-first-failure flag, if any."""
    tc = classify(command, None)
    proof, repeat = tc.proof(FILES), tc.proof(FILES, fail_fast=True)
    if flag is None:
        assert repeat == proof
    else:
        assert flag not in proof and flag in repeat
        assert repeat.replace(flag, " ", 1) == proof


def test_check_calls_the_runner_directly() -> None:
    npm = classify("npm run unit", json.dumps({"scripts": {"unit": "jest"}}))
    assert npm.check(["a.test.js"]) == (
        "node_modules/.bin/jest --ci --json '--outputFile={junit}' a.test.js {canaries}",
        "repo-jest-json",
    )
    pytest_tc = classify("uv run pytest -x", None)
    assert pytest_tc.runnable(["tests/conftest.py", "tests/test_a.py", "tests/data.json"]) == [
        "tests/test_a.py"
    ]
    assert pytest_tc.check(["tests/test_a.py"]) == (
        "PYTHONSAFEPATH=1 PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 uv run pytest -p no:cacheprovider "
        "--continue-on-collection-errors '--junitxml={junit}' tests/test_a.py {canaries}",
        "repo-pytest",
    )
    module = replace(classify(".venv/bin/python -m pytest", None), plugins=("anyio", "timeout"))
    assert module.check(["tests/test_a.py"])[0] == (
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 .venv/bin/python -E -P -m pytest "
        "-p no:cacheprovider -p anyio -p timeout --continue-on-collection-errors "
        "'--junitxml={junit}' tests/test_a.py {canaries}"
    )
    assert module.proof(["tests/test_a.py"]) == (
        ".venv/bin/python -E -m pytest -p no:cacheprovider '--junitxml={junit}' tests/test_a.py"
    )
    assert {"conftest.py", "pytest.toml", ".pytest.toml", ".pytest.ini"} <= set(
        pytest_tc.config_files()
    )
    custom = classify("./run-tests --xml {junit} {files}", None)
    assert custom.check(["t/x.sh"]) == ("./run-tests --xml {junit} t/x.sh", "junit")


def test_a_runner_without_evidence_is_refused() -> None:
    for command, package in [
        ("gradle test", None),
        ("npm test", _package("ava")),
        ("make {files}", None),
    ]:
        with pytest.raises(UsageError, match="cannot prove that tests ran") as error:
            classify(command, package).check([])
        assert 'for example --test-command "./run-tests --junit-xml {junit} {files}"' in str(
            error.value
        )


def test_detect_the_project_command() -> None:
    def found(script: str, tree: set[str]) -> str:
        return detect(_package(script), tree, None).command

    assert found("vitest run", {"package.json", "pnpm-lock.yaml"}) == "node_modules/.bin/vitest run"
    assert found("jest", {"package.json", "yarn.lock"}) == "node_modules/.bin/jest"
    assert found("node --test", {"package.json"}) == "node --test"
    assert found("eslint . && vitest run -c vitest.unit.ts && tsc -p .", {"package.json"}) == (
        "node_modules/.bin/vitest run -c vitest.unit.ts"
    )
    assert found("cross-env CI=1 c8 node --import tsx --test test/", {"package.json"}) == (
        "CI=1 node --import tsx --test"
    )
    chained = json.dumps({"scripts": {"test": "tsc && npm run unit", "unit": "jest --ci"}})
    assert detect(chained, {"package.json"}, None).command == "node_modules/.bin/jest"
    assert found("make check", {"package.json", "pnpm-lock.yaml"}) == "pnpm test"
    npm_default = _package('echo "Error: no test specified" && exit 1')
    assert detect(npm_default, {"package.json", "tests/test_a.py"}, None).command == (
        "python3 -m pytest"
    )
    assert detect(None, {"pyproject.toml"}, ".venv/bin/python").command == (
        ".venv/bin/python -m pytest"
    )
    with pytest.raises(UsageError, match="give --test-command"):
        detect(None, {"main.c"}, None)
    assert found("mocha -r ts-node/register 'test/**/*.ts'", {"package.json"}) == (
        "node_modules/.bin/mocha -r ts-node/register"
    )
    assert found("tap test/", {"package.json"}) == "node_modules/.bin/tap"
    assert found("borp --coverage", {"package.json"}) == "node_modules/.bin/borp"
    assert found("python -m unittest discover -s tests", {"package.json"}) == (
        "python -m unittest discover -s tests"
    )
    unittest = classify("python -m unittest discover -s tests", None)
    assert (unittest.kind, unittest.prefix) == ("unittest", "python")
    given = classify(".venv/bin/python -m unittest {files}", None)
    assert (given.kind, given.prefix) == ("unittest", ".venv/bin/python")
    assert given.check(["tests/test_a.py"])[1] == "repo-unittest"


@pytest.mark.parametrize("manager", ["pnpm", "yarn"])
def test_a_missing_package_manager_calls_the_runner(
    manager: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without pnpm or yarn on PATH, ``pnpm test`` runs the script's runner directly."""
    monkeypatch.setenv("PATH", str(tmp_path))
    tc = classify(f"{manager} test", _package("vitest run"))
    assert tc.wrapper is None and tc.prefix == "node_modules/.bin/vitest run"
    assert tc.proof(["a.test.ts"]).startswith("node_modules/.bin/vitest run --no-cache ")


def test_file_classes() -> None:
    assert is_test_path("tests/helpers.py") and is_test_path("src/a.test.ts")
    assert is_test_path("pkg/__tests__/x.js") and is_test_path("test_a.py")
    assert not is_test_path("src/testing.py") and not is_test_path("latest/a.py")
    assert is_test_path("conftest.py") and is_test_path("pkg/.pytest.ini")
    assert is_test_path("pytest.toml") and is_test_path("tox.ini")
    assert is_doc_path("docs/x.py") and is_doc_path("CHANGES.rst") and not is_doc_path("a.py")


def test_dependency_change_reads_the_package_json_diff() -> None:
    base = {"name": "a", "version": "1.0.0", "dependencies": {"x": "1"}}
    assert not dependency_change(json.dumps(base), json.dumps({**base, "version": "1.1.0"}))
    assert not dependency_change(json.dumps(base), json.dumps({**base, "scripts": {"t": "x"}}))
    assert dependency_change(json.dumps(base), json.dumps({**base, "devDependencies": {"y": "2"}}))
    assert dependency_change(json.dumps(base), "{broken")


def test_give_aways_are_stripped() -> None:
    message = (
        "Fix rounding (#123)\n\nReverts 0123abcd and see https://github.com/o/r/pull/9.\n"
        "Closes #120, o/r#7.\n\nCo-authored-by: A <a@b.c>\nChange-Id: I0123456789abcdef"
    )
    cleaned = clean_message(message)
    assert cleaned.startswith("Fix rounding\n\nReverts and see")
    for leak in ("#123", "0123abcd", "https", "#120", "#7", "Co-authored-by", "Change-Id"):
        assert leak not in cleaned


def test_jest_json_evidence_and_fail_to_pass(tmp_path: Path) -> None:
    runner = JestJsonCheckRunner()
    plan = runner.plan("jest --json --outputFile={junit} a.test.js", tmp_path)
    report = plan.evidence_paths[0]
    assert plan.command == f"jest --json --outputFile={report} a.test.js"
    report.write_text(
        json.dumps(
            {
                "testResults": [
                    {
                        "name": "/w/a.test.js",
                        "status": "failed",
                        "assertionResults": [
                            {"fullName": "a adds", "status": "passed"},
                            {"fullName": "a subtracts", "status": "failed"},
                            {"fullName": "a later", "status": "pending"},
                        ],
                    }
                ]
            }
        )
    )
    evidence = runner.evidence(plan, tmp_path, CommandResult(1, "", False, 1))
    assert (evidence.tests_ran, evidence.failed) == (2, 1)
    after = read_results(report)
    stale = runner.plan("jest", tmp_path)
    assert not report.exists()
    assert runner.evidence(stale, tmp_path, CommandResult(0, "", False, 1)).tests_ran is None
    assert fail_to_pass({"a adds": "failed"}, after) == ["a adds"]
    assert fail_to_pass(None, {"x": "passed", "y": "skipped"}) == ["x"]
