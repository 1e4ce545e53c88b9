"""Held-out Go tests written one to a file under fresh names, compiled and run by real go test."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import anyio
import pytest

from garuda_evals.api import CommandResult, FileFormatError, HeldOut, Suite, Task
from garuda_evals.runner.check import Verdict
from garuda_evals.testing import self_test
from garuda_evals.toolchains import ToolchainStatus
from garuda_evals_go.check import GoCheckRunner
from garuda_evals_go.goscan import GoSyntaxError, read_go
from garuda_evals_go.held_out import FILES, WORDS, assumed_name, held_out_run

TASK = "03-cents-across-packages"
PACKAGE = "example.com/shop/tests"
HEAD = """package tests

import (
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"example.com/shop/inventory"
	"example.com/shop/money"
	"example.com/shop/pricing"
)

// order is also the name of a helper of the task's own tests.
func order(qty int) []inventory.Item {
	return []inventory.Item{{Name: "pen", Price: money.Cents(120), Qty: qty}}
}

type (
	basket []inventory.Item
	label  = string
)

var twice, thrice = 2, 3

const banner = `receipt
func notADeclaration() {
}`

func (b basket) total() money.Cents { return pricing.Total(b) }
"""
# name -> (what the test computes, its expected values: held-out, canary A, canary B); only
# the receipt test uses strings (a blank import in the others' files).
TESTS = {
    "TestTwoPens": ("pricing.Total(order(twice))", (240, 241, 120)),
    "TestThreePensInABasket": ("basket(order(thrice)).total()", (360, 0, 3)),
    "TestReceiptOfTwoPens": (
        "strings.TrimPrefix(pricing.Receipt(order(twice)), banner)",
        ("2 x pen @ 1.20\ntotal 2.40\n", "2 x pen @ 1.2\n", "total 2.40\n"),
    ),
}


def _want(value: int | str) -> str:
    """The expected value as Go source."""
    if isinstance(value, int):
        return f"money.Cents({value})"
    return "label(" + repr(value).replace("'", '"') + ")"


def _source(which: int) -> str:
    """The held-out file (0), or one of its two canaries (1, 2): another expected value."""
    parts = [HEAD]
    for name, (call, values) in TESTS.items():
        suffix = "" if not which else "AB"[which - 1]
        parts.append(
            f"\nfunc {name}{suffix}(t *testing.T) {{\n"
            f'\tif diff := gocmp.Diff({_want(values[which])}, {call}); diff != "" {{\n'
            '\t\tt.Fatalf("(-want +got):\\n%s", diff)\n\t}\n}\n'
        )
    return "".join(parts)


HELD_OUT = {"tests/more_pens_test.go": _source(0)}
CANARIES = {"tests/more_pens_test.go": _source(1), "tests/other_pens_test.go": _source(2)}


def _task(suite: Suite) -> Task:
    task = next(task for task in suite.tasks() if task.id == TASK)
    return task.model_copy(update={"held_out": HeldOut(tests=HELD_OUT, canaries=CANARIES)})


def _solved(suite: Suite, task: Task, workspace: Path) -> None:
    suite.materialize(task, workspace)
    assert task.solution is not None
    for relative, text in task.solution.files.items():
        (workspace / relative).write_text(text)


def _go_test(workspace: Path, task: Task) -> dict[str, str]:
    """Every case go test -json reports, as the go-test runner reads it: id -> outcome."""
    runner = GoCheckRunner()
    plan = runner.plan(task.check.command, workspace)
    done = subprocess.run(
        ["bash", "-c", plan.command], cwd=workspace, capture_output=True, text=True, timeout=300
    )
    result = CommandResult(done.returncode, done.stdout + done.stderr, False, 0)
    evidence = runner.evidence(plan, workspace, result)
    assert evidence.tests_ran, (evidence.detail, done.stderr[-2000:])
    return {case.id: case.outcome for case in evidence.cases}


def test_every_task_of_the_suite_has_three_held_out_tests_with_two_canaries_each(
    go_suite: Suite,
) -> None:
    """Canary ``<name>A`` and ``<name>B`` for each held-out ``<name>``, in ``tests/``."""
    for task in go_suite.tasks():
        assert task.held_out is not None, task.id
        held = [
            decl.function
            for text in task.held_out.tests.values()
            for decl in read_go(text).decls
            if decl.function and decl.function.startswith("Test")
        ]
        canaries = sorted(
            decl.function
            for text in task.held_out.canaries.values()
            for decl in read_go(text).decls
            if decl.function and decl.function.startswith("Test")
        )
        assert len(held) >= 3, task.id
        assert canaries == sorted(f"{name}{suffix}" for name in held for suffix in "AB"), task.id
        paths = {*task.held_out.tests, *task.held_out.canaries}
        assert {path.rpartition("/")[0] for path in paths} == {"tests"}, task.id


# --- the reader -------------------------------------------------------------------------


def test_the_reader_finds_the_declarations_the_compiler_sees() -> None:
    source = read_go(HEAD + "\nfunc TestX(tt *testing.T) {}\n")
    assert [item.path for item in source.imports][:2] == ["strings", "testing"]
    assert source.imports[2].name == "gocmp"
    found = [(decl.keyword, decl.names) for decl in source.decls]
    assert found == [
        ("func", ("order",)),
        ("type", ("basket", "label")),
        ("var", ("twice", "thrice")),
        # the raw string's "func" at the start of a line starts no declaration
        ("const", ("banner",)),
        ("func", ()),  # a method declares no package-level name
        ("func", ("TestX",)),
    ]
    assert source.decls[-1].parameter == "tt"


def test_a_newline_inside_an_expression_does_not_end_the_declaration() -> None:
    source = read_go("package p\n\nvar f =\n\tfunc() int { return 1 }\n\nfunc g() {}\n")
    assert [(decl.keyword, decl.names) for decl in source.decls] == [
        ("var", ("f",)),
        ("func", ("g",)),
    ]


@pytest.mark.parametrize(
    "text",
    ['package p\n\nvar s = "open\n', "package p\n\nvar s = `open\n", "package p\nfunc f() {\n"],
)
def test_unclosed_source_is_a_syntax_error(text: str) -> None:
    with pytest.raises(GoSyntaxError):
        read_go(text)


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("github.com/google/go-cmp/cmp", "cmp"),
        ("gopkg.in/yaml.v3", "yaml"),
        ("github.com/mattn/go-sqlite3", "sqlite3"),
        ("example.com/lib/v2", "lib"),
        ("strings", "strings"),
    ],
)
def test_an_import_path_suggests_its_package_name_as_goimports_assumes(
    path: str, name: str
) -> None:
    assert assumed_name(path) == name


# --- what a held-out file may hold ------------------------------------------------------

BAD = {
    "not a test file": ("tests/helpers.go", "package tests\n"),
    "TestMain": (
        "tests/a_test.go",
        'package tests\n\nimport "testing"\n\nfunc TestMain(m *testing.M) {}\n',
    ),
    "runs subtests": (
        "tests/a_test.go",
        'package tests\n\nimport "testing"\n\nfunc TestA(t *testing.T) {\n\tt.Run("x", func(t *testing.T) {})\n}\n',
    ),
    "dot import": (
        "tests/a_test.go",
        'package tests\n\nimport (\n\t"testing"\n\t. "strings"\n)\n\nfunc TestA(t *testing.T) {}\n',
    ),
    "no Test function": ("tests/a_test.go", "package tests\n\nfunc helper() {}\n"),
    "ExampleA": ("tests/a_test.go", "package tests\n\nfunc ExampleA() {}\n"),
    "not closed": ("tests/a_test.go", "package tests\n\nfunc TestA(t *testing.T) {\n"),
}


@pytest.mark.parametrize("problem", sorted(BAD))
def test_a_file_the_split_cannot_keep_is_refused_naming_it(tmp_path: Path, problem: str) -> None:
    path, text = BAD[problem]
    (tmp_path / "go.mod").write_text("module example.com/shop\n")
    with pytest.raises(FileFormatError, match=rf"^canaries/{re.escape(path)}: .*"):
        held_out_run({}, {path: text}, tmp_path)
    if problem not in ("not a test file", "not closed"):
        with pytest.raises(FileFormatError, match=re.escape(problem)):
            held_out_run({}, {path: text}, tmp_path)


def test_ids_name_the_package_of_the_nearest_module(tmp_path: Path) -> None:
    """A folder in a nested module takes that module's path; a folder in none is refused."""
    (tmp_path / "go.mod").write_text("module example.com/shop\n")
    (tmp_path / "tools" / "lint").mkdir(parents=True)
    (tmp_path / "tools" / "go.mod").write_text("// a tool\nmodule example.com/tools\n")
    path = "tools/lint/more_pens_test.go"
    run = held_out_run({path: _source(0)}, {path: _source(1)}, tmp_path)
    assert all(test.startswith("example.com/tools/lint/Test") for test in run.must_pass)
    assert all(path.startswith("tools/lint/") for path in run.files)
    (tmp_path / "go.mod").unlink()
    with pytest.raises(FileFormatError, match=r"^heldout/tests/more_pens_test.go: tests is in no"):
        held_out_run(HELD_OUT, {}, tmp_path)


# --- names ------------------------------------------------------------------------------


def test_one_test_to_a_file_and_only_the_names_and_the_expected_value_differ(
    tmp_path: Path,
) -> None:
    """Every file holds one test, the source's helpers under names of its own; a held-out
    test's file and its canary's are the same text but for names and the expected value."""
    (tmp_path / "go.mod").write_text("module example.com/shop\n")
    run = held_out_run(HELD_OUT, CANARIES, tmp_path)
    assert len(run.must_pass) == 3 and len(run.must_fail) == 6
    by_name = {
        path: re.findall(r"^func (Test\w+)\(", text, re.M) for path, text in run.files.items()
    }
    assert all(len(tests) == 1 for tests in by_name.values()), by_name
    shapes: dict[str, set[str]] = {}
    for path, text in run.files.items():
        (test,) = by_name[path]
        word = test.removeprefix("Test")
        assert f"func order{word}(qty int)" in text and f"\tbasket{word} " in text
        shape = text.replace(word, "W")
        for _, values in TESTS.values():
            for value in values:
                shape = shape.replace(_want(value).replace("label(", "labelW("), "V")
        assert ('_ "strings"' in shape) == ("strings.TrimPrefix" not in shape), text
        shapes.setdefault(shape, set()).add(path)
    # three tests, each in three files (the held-out one and two canaries) alike but for V
    assert sorted(len(paths) for paths in shapes.values()) == [3, 3, 3]


def test_names_are_never_ones_the_folder_has(tmp_path: Path) -> None:
    """Only two one-word file names and one test name are left free: the rest are drawn as
    two words; no file there is written over, and no name is declared twice."""
    (tmp_path / "go.mod").write_text("module example.com/shop\n")
    (tmp_path / "tests").mkdir()
    free_files, free_word = FILES[:2], WORDS[0]
    for word in FILES[2:]:
        (tmp_path / "tests" / f"{word}_test.go").write_text("package tests\n")
    declared = "".join(f"func Test{word}(t *testing.T) {{}}\n" for word in WORDS[1:])
    (tmp_path / "tests" / "taken_test.go").write_text(f"package tests\n\n{declared}")
    before = {path.name for path in (tmp_path / "tests").iterdir()}
    run = held_out_run(HELD_OUT, CANARIES, tmp_path, rng=random.Random(7))
    names = {path.removeprefix("tests/") for path in run.files}
    assert not names & before
    assert {f"{word}_test.go" for word in free_files} <= names
    assert sum(name.count("_") == 2 for name in names) == 7  # <word>_<word>_test.go
    tests = [test.rpartition("/")[2] for test in [*run.must_pass, *run.must_fail]]
    assert len(set(tests)) == 9 and f"Test{free_word}" in tests
    assert not {f"Test{word}" for word in WORDS[1:]} & set(tests)


def test_names_never_run_out(tmp_path: Path) -> None:
    """A folder holding every one- and two-word name (files and tests) still gets free
    names: a word and a number."""
    (tmp_path / "go.mod").write_text("module example.com/shop\n")
    (tmp_path / "tests").mkdir()
    stems = [*FILES, *(f"{a}_{b}" for a in FILES for b in FILES if a != b)]
    for stem in stems:
        (tmp_path / "tests" / f"{stem}_test.go").write_text("package tests\n")
    tests = [*WORDS, *(a + b for a in WORDS for b in WORDS if a != b)]
    declared = "".join(f"func Test{word}(t *testing.T) {{}}\n" for word in tests)
    (tmp_path / "tests" / "taken_test.go").write_text(f"package tests\n\n{declared}")
    run = held_out_run(HELD_OUT, CANARIES, tmp_path)
    assert len(run.files) == 9
    assert all(re.fullmatch(r"tests/[a-z]+_\d+_test\.go", path) for path in run.files), run.files
    ids = [*run.must_pass, *run.must_fail]
    assert all(re.fullmatch(rf"{PACKAGE}/Test[A-Za-z]+\d+", test) for test in ids), ids


def test_names_come_from_the_system_not_from_the_nonce(go_suite: Suite, tmp_path: Path) -> None:
    """The nonce is in the runner's canary file, readable by code under test: the same
    nonce twice gives other names."""
    task = _task(go_suite)
    go_suite.materialize(task, tmp_path)
    runner = GoCheckRunner()
    first, second = (runner.held_out(task, tmp_path, "0" * 16) for _ in range(2))
    assert first is not None and second is not None
    assert (sorted(first.files), first.must_pass) != (sorted(second.files), second.must_pass)


# --- real go test -----------------------------------------------------------------------


def test_go_test_reports_every_file_under_the_ids_given(
    go: ToolchainStatus, go_suite: Suite, tmp_path: Path
) -> None:
    """Written beside the task's tests and the runner's canary, in a folder whose one-word
    names are nearly all taken: the package builds (helpers, imports a test leaves unused,
    a helper named like one of the task's), and go test reports every held-out test passed
    and every canary failed under the ids the runner gave, the task's tests passed."""
    task = _task(go_suite)
    _solved(go_suite, task, tmp_path)
    canaries = GoCheckRunner().canaries(task, tmp_path, "f" * 16)
    assert canaries is not None
    for relative, text in canaries.files.items():
        (tmp_path / relative).write_text(text)
    for word in FILES[3:]:
        if not (tmp_path / "tests" / f"{word}_test.go").exists():
            (tmp_path / "tests" / f"{word}_test.go").write_text("package tests\n")
    taken = {path.name: path.read_text() for path in (tmp_path / "tests").iterdir()}
    run = GoCheckRunner().held_out(task, tmp_path, "f" * 16)
    assert run is not None
    for relative, text in run.files.items():
        target = tmp_path / relative
        assert not target.exists(), relative
        target.write_text(text)
    outcomes = _go_test(tmp_path, task)
    assert {outcomes.get(test) for test in run.must_pass} == {"passed"}, outcomes
    assert {outcomes.get(test) for test in run.must_fail} == {"failed"}, outcomes
    assert outcomes[canaries.must_fail] == "failed" and outcomes[canaries.must_pass] == "passed"
    assert task.expected_tests and {outcomes[test] for test in task.expected_tests} == {"passed"}
    assert all(test.startswith(f"{PACKAGE}/") for test in [*run.must_pass, *run.must_fail])
    for name, text in taken.items():
        assert (tmp_path / "tests" / name).read_text() == text, name


def test_the_judge_rules_on_them_solved_and_unsolved(go: ToolchainStatus, go_suite: Suite) -> None:
    """Through the judge (host executor): solved, the held-out tests pass and their canaries
    fail, a PASS; unsolved, none of them passes."""
    task = _task(go_suite)

    async def both() -> tuple[Verdict, Verdict]:
        return (
            await self_test(go_suite, task, solved=True),
            await self_test(go_suite, task, solved=False),
        )

    solved, unsolved = anyio.run(both)
    assert solved.passed, solved.reason
    assert set(solved.held_out) == {f"tests/more_pens_test.go::{name}" for name in TESTS}
    assert set(solved.held_out.values()) == {"passed"}
    assert len(solved.held_out_canaries) == 6
    assert set(solved.held_out_canaries.values()) == {"failed"}
    assert not unsolved.passed
    assert "passed" not in {*unsolved.held_out.values(), *unsolved.held_out_canaries.values()}
