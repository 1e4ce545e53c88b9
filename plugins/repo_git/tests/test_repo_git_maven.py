"""A Maven project mined with no --test-command: ``mvn test``, Surefire's reports as evidence."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest

from garuda_evals.testing import self_test, skip_or_fail
from garuda_evals_repo_git.builder import GitSuiteBuilder
from garuda_evals_repo_git.suite import load_repo_suite

POM = (
    Path(__file__).parents[3] / "plugins/maven/src/garuda_evals_java/suite_data/java/shared/pom.xml"
)
CALC = "src/main/java/com/example/Calc.java"
TEST = "src/test/java/com/example/CalcTest.java"


def _calc(*methods: str) -> str:
    bodies = {
        "add": "    public static int add(int a, int b) {\n        return a + b;\n    }\n",
        "max": "    public static int max(int a, int b) {\n        return a > b ? a : b;\n    }\n",
        "add2": "    public static int add(int a, int b) {\n        return b + a;\n    }\n",
    }
    return (
        "package com.example;\n\npublic class Calc {\n"
        + "\n".join(bodies[m] for m in methods)
        + "}\n"
    )


def _test(cls: str, *cases: tuple[str, str, str]) -> str:
    tests = "\n".join(
        f"    @Test\n    void {name}() {{\n        assertEquals({want}, {call});\n    }}\n"
        for name, call, want in cases
    )
    return (
        "package com.example;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\n"
        f"import org.junit.jupiter.api.Test;\n\nclass {cls} {{\n{tests}}}\n"
    )


@pytest.fixture(scope="module")
def maven(tmp_path_factory: pytest.TempPathFactory, repo_kit: Any) -> SimpleNamespace:
    if not shutil.which("mvn"):
        skip_or_fail("maven", "mvn runs the Maven project's tests")
    repo = repo_kit.GitRepo(tmp_path_factory.mktemp("maven") / "calc")
    add = ("testAdd", "Calc.add(2, 3)", "5")
    repo.commit(
        "Start calc",
        {
            ".gitignore": "target/\n",
            "pom.xml": POM.read_text(),
            CALC: _calc("add"),
            TEST: _test("CalcTest", add),
        },
    )
    shas = {
        "max": repo.commit(
            "Add max",
            {
                CALC: _calc("add", "max"),
                TEST: _test("CalcTest", add, ("testMax", "Calc.max(2, 7)", "7")),
            },
        )
    }
    shas["already"] = repo.commit(
        "Tidy add",
        {
            CALC: _calc("add2", "max"),
            "src/test/java/com/example/AddZeroTest.java": _test(
                "AddZeroTest", ("testZero", "Calc.add(0, 4)", "4")
            ),
        },
    )
    lines: list[str] = []
    builder = GitSuiteBuilder(commit_runs=1, parent_runs=1)
    code = builder.build({"mutants": 0}, cwd=repo.root, echo=lines.append)
    return SimpleNamespace(repo=repo, shas=shas, code=code, output="\n".join(lines))


def test_maven_is_detected_and_its_commit_kept(maven: SimpleNamespace) -> None:
    assert maven.code == 0, maven.output
    assert "with 'mvn test' (detected: a Maven project (pom.xml))" in maven.output
    assert "the tests already pass at the parent" in maven.output
    saved = json.loads((maven.repo.root / ".garuda/evals/repo-suite.json").read_text())
    [task] = saved["tasks"]
    assert task["commit"] == maven.shas["max"]
    assert task["checkCommand"] == "mvn -B -o test" and task["checkRunner"] == "surefire"
    # The parent does not compile with the new test: every test of the class is absent there.
    assert task["failToPass"] == ["com.example.CalcTest::testAdd", "com.example.CalcTest::testMax"]


def test_the_maven_suite_passes_with_the_oracle_and_fails_with_noop(maven: SimpleNamespace) -> None:
    suite = load_repo_suite(maven.repo.root)
    [task] = suite.tasks()
    solved = anyio.run(lambda: self_test(suite, task, solved=True))
    assert solved.passed, (solved.reason, solved.check)
    assert not anyio.run(lambda: self_test(suite, task, solved=False)).passed
