"""A Go module mined with no --test-command: ``go test``, evidence from ``go test -json``."""

from __future__ import annotations

import json
import shutil
from types import SimpleNamespace
from typing import Any

import anyio
import pytest

from garuda_evals.testing import self_test, skip_or_fail
from garuda_evals_repo_git.builder import GitSuiteBuilder
from garuda_evals_repo_git.suite import load_repo_suite

GO_MOD = "module example.com/calc\n\ngo 1.21\n"
ADD = "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
MAX = "\nfunc Max(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\n"
REVERSE = (
    "package strutil\n\nfunc Reverse(s string) string {\n\tr := []rune(s)\n"
    "\tfor i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {\n\t\tr[i], r[j] = r[j], r[i]\n\t}\n"
    "\treturn string(r)\n}\n"
)


def _test(package: str, name: str, call: str, want: str) -> str:
    return (
        f'package {package}\n\nimport "testing"\n\nfunc {name}(t *testing.T) {{\n'
        f'\tif got := {call}; got != {want} {{\n\t\tt.Fatalf("got %v", got)\n\t}}\n}}\n'
    )


@pytest.fixture(scope="module")
def gomod(tmp_path_factory: pytest.TempPathFactory, repo_kit: Any) -> SimpleNamespace:
    if not shutil.which("go"):
        skip_or_fail("go", "go runs the Go module's tests")
    repo = repo_kit.GitRepo(tmp_path_factory.mktemp("go") / "calc")
    repo.commit(
        "Start calc",
        {
            "go.mod": GO_MOD,
            "calc.go": ADD,
            "calc_test.go": _test("calc", "TestAdd", "Add(2, 3)", "5"),
        },
    )
    shas = {
        "max": repo.commit(
            "Add Max",
            {"calc.go": ADD + MAX, "max_test.go": _test("calc", "TestMax", "Max(2, 7)", "7")},
        ),
        "reverse": repo.commit(
            "Add Reverse",
            {
                "strutil/reverse.go": REVERSE,
                "strutil/reverse_test.go": _test(
                    "strutil", "TestReverse", 'Reverse("abc")', '"cba"'
                ),
            },
        ),
    }
    lines: list[str] = []
    builder = GitSuiteBuilder(commit_runs=1, parent_runs=1)
    code = builder.build({"mutants": 3}, cwd=repo.root, echo=lines.append)
    return SimpleNamespace(repo=repo, shas=shas, code=code, output="\n".join(lines))


def test_go_is_detected_and_its_commits_kept(gomod: SimpleNamespace) -> None:
    assert gomod.code == 0, gomod.output
    assert "with 'go test ./...' (detected: a Go module (go.mod))" in gomod.output
    saved = json.loads((gomod.repo.root / ".garuda/evals/repo-suite.json").read_text())
    tasks = {t["commit"]: t for t in saved["tasks"]}
    assert set(tasks) == {gomod.shas["max"], gomod.shas["reverse"]}, gomod.output
    reverse = tasks[gomod.shas["reverse"]]
    assert reverse["checkRunner"] == "repo-go-test"
    assert "go test -count=1 -json ./strutil > {gojson}" in reverse["checkCommand"]
    assert reverse["failToPass"] == ["example.com/calc/strutil/TestReverse"]
    assert reverse["mutants"] == 3 and reverse["strength"] is not None


def test_the_go_suite_passes_with_the_oracle_and_fails_with_noop(gomod: SimpleNamespace) -> None:
    suite = load_repo_suite(gomod.repo.root)
    for task in suite.tasks():
        solved = anyio.run(lambda task=task: self_test(suite, task, solved=True))
        assert solved.passed, (task.id, solved.reason, solved.check)
        assert not anyio.run(lambda task=task: self_test(suite, task, solved=False)).passed
