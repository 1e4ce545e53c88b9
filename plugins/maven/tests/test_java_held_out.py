"""Held-out JUnit tests and their canaries, one test to a class under names drawn per run:
what the classes hold, that nothing but the assertion tells the kinds apart, that the
run's nonce (which code under test can read) does not give the names away, and that
Surefire reports each under the id the judge looks for."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from garuda_evals.checks.junit import read_junit
from garuda_evals.environment import check_environment
from garuda_evals.errors import FileFormatError
from garuda_evals.models.task import HeldOut, Task
from garuda_evals.suites.base import write_files
from garuda_evals.suites.folder import FolderSuite
from garuda_evals.testing import run_garuda
from garuda_evals.toolchains import ToolchainStatus
from garuda_evals_java.canary_text import VERBS, WORDS
from garuda_evals_java.checks import REPORT_DIR, SurefireCheckRunner
from garuda_evals_java.held_out import held_out_run
from garuda_evals_java.java_source import views
from garuda_evals_java.junit_class import read_test_class
from garuda_evals_java.project import SUITE_ROOT

NONCE = "h31d-0u7-5eed"
SEED = f"held-out {NONCE}"
FOLDER = "src/test/java/com/example/paging"
SOURCE = f"{FOLDER}/MorePagesTest.java"
CLASS = re.compile(rf"{re.escape(FOLDER)}/([A-Z][a-z]+)Test\.java")
METHOD = re.compile(rf"({'|'.join(VERBS)})({'|'.join(WORDS)})")

FULL = """\
package com.example.paging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** MorePagesTest: the one the judge keeps. */
class MorePagesTest {

    private static final int[] SIZES = {1, 2}; // sizes
    private final Runnable nothing = () -> { };
    private int base;

    @BeforeEach
    void setUp() {
        base = 10;
    }

    private static int twice(int value) {
        return 2 * value;
    }

    @Test
    void firstOne() {
        // must pass
        assertEquals(20, twice(base), "MorePagesTest {");
    }

    static final class Fixture {
        static final String TEXT = \"\"\"
            a } "b" // not a comment

            c
            \"\"\";
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 5)
    void secondOne() {
        MorePagesTest self = new MorePagesTest();
        assertEquals('}', Fixture.TEXT.charAt(2), MorePagesTest.class.getName());
    };
}
"""


def _task(java_suite: FolderSuite, task_id: str) -> Task:
    return next(task for task in java_suite.tasks() if task.id == task_id)


def _shape(text: str, path: str, method: str) -> str:
    """The text with this run's class and method names taken out."""
    name = Path(path).stem
    return text.replace(name, "<Class>").replace(f"void {method}(", "void <method>(")


def _one_hunk(text: str, other: str) -> bool:
    """Whether the two texts differ, in lines next to each other (an expected value)."""
    lines, others = text.splitlines(), other.splitlines()
    if len(lines) != len(others):
        return False
    differ = [i for i, (a, b) in enumerate(zip(lines, others, strict=True)) if a != b]
    return bool(differ) and differ == list(range(differ[0], differ[0] + len(differ)))


def test_each_test_becomes_a_class_of_its_own_with_the_rest_of_its_source() -> None:
    run = held_out_run({SOURCE: FULL}, {}, set(), SEED)

    assert len(run.files) == 2 and run.must_fail == {}
    by_task_name = {name: test for test, name in run.must_pass.items()}
    assert set(by_task_name) == {f"{SOURCE}::firstOne", f"{SOURCE}::secondOne"}
    for task_name, test in by_task_name.items():
        qualified, _, method = test.partition("::")
        package, _, name = qualified.rpartition(".")
        path = f"{FOLDER}/{name}.java"
        text = run.files[path]
        assert package == "com.example.paging" and CLASS.fullmatch(path), path
        assert METHOD.fullmatch(method), method
        assert text.startswith("package com.example.paging;\n\nimport static ")
        assert f"\nclass {name} {{\n" in text and text.count("@Test") == 1
        assert f"void {method}() {{" in text
        for member in ("int[] SIZES = {1, 2};", "Runnable nothing = () -> { };", "void setUp()"):
            assert member in text, member
        assert "private static int twice(int value)" in text
        assert '            a } "b" // not a comment\n\n            c\n' in text
        assert "MorePagesTest" not in text.replace('"MorePagesTest {"', "")
        assert "/**" not in text and "// sizes" not in text and "// must pass" not in text
        if task_name.endswith("secondOne"):
            assert f"{name} self = new {name}();" in text and f"{name}.class.getName()" in text
            assert "@org.junit.jupiter.api.Timeout(value = 5)" in text


def test_held_out_tests_and_canaries_differ_only_in_the_assertion(
    java_suite: FolderSuite, tmp_path: Path
) -> None:
    """Taken apart from their run's names, every held-out test reads like two or more of its
    canaries but for the lines that say what is expected."""
    for task in java_suite.tasks():
        assert task.held_out is not None, task.id
        run = SurefireCheckRunner().held_out(task, tmp_path, NONCE)
        assert run is not None
        shapes: dict[str, str] = {}
        for test in (*run.must_pass, *run.must_fail):
            qualified, _, method = test.partition("::")
            name = qualified.rpartition(".")[2]
            path = next(path for path in run.files if path.endswith(f"/{name}.java"))
            shapes[test] = _shape(run.files[path], path, method)
        for test in run.must_pass:
            alike = [other for other in run.must_fail if _one_hunk(shapes[test], shapes[other])]
            assert len(alike) >= 2, (task.id, run.must_pass[test])
        assert len(run.must_pass) >= 3 and len(run.must_fail) >= 2 * len(run.must_pass)


def test_the_names_follow_the_seed_and_avoid_every_class_there() -> None:
    folder_classes = {f"{FOLDER}/{word}Test.java" for word in WORDS[3:]}
    tests = {SOURCE: FULL}
    canaries = {SOURCE.replace("More", "Other"): FULL.replace("MorePagesTest", "OtherTest")}

    first = held_out_run(tests, canaries, folder_classes, SEED)

    assert first == held_out_run(tests, canaries, folder_classes, SEED)
    assert set(first.files) != set(held_out_run(tests, canaries, folder_classes, "other").files)
    assert len(first.files) == 4 and not set(first.files) & folder_classes
    assert len({Path(path).stem for path in first.files}) == 4
    ids = [*first.must_pass, *first.must_fail]
    assert all(f"{Path(path).stem}::" in " ".join(ids) for path in first.files)


def test_the_runs_nonce_alone_does_not_give_the_names(
    java_suite: FolderSuite, tmp_path: Path
) -> None:
    """The nonce is in the runner's canary, where code under test can read it: drawing the
    names again from it must not tell which classes hold the held-out tests."""
    task = _task(java_suite, "paginator-boundary")
    assert task.held_out is not None
    runner = SurefireCheckRunner()
    runs = [runner.held_out(task, tmp_path, NONCE) for _ in range(3)]
    redrawn = held_out_run(task.held_out.tests, task.held_out.canaries, set(task.files), SEED)

    held = [set(run.must_pass) for run in runs if run is not None]
    assert len(held) == 3 and held[0] != held[1] != held[2] != held[0]
    assert set(redrawn.must_pass) not in held


def test_the_runner_names_around_the_tasks_tests_and_its_canary(
    java_suite: FolderSuite, tmp_path: Path
) -> None:
    runner = SurefireCheckRunner()
    for task in java_suite.tasks():
        workspace = tmp_path / task.id
        write_files(workspace, task.files)
        canaries = runner.canaries(task, workspace, NONCE)
        assert canaries is not None
        write_files(workspace, dict(canaries.files))
        run = runner.held_out(task, workspace, NONCE)
        assert run is not None
        assert not set(run.files) & {*task.files, *canaries.files}, task.id
        assert {path.rpartition("/")[0] for path in run.files} == {
            path.rpartition("/")[0] for path in canaries.files
        }


@pytest.mark.parametrize(
    ("source", "error"),
    [
        (FULL.replace("@Test\n    void firstOne", "@ParameterizedTest\n    void firstOne"),
         "@ParameterizedTest on line 24: held-out tests are plain @Test methods"),
        (FULL + "class Extra {\n}\n", "more than one top-level type"),
        (FULL.replace("@Test", "@Disabled"), "no @Test method"),
        (FULL.replace("firstOne", "secondOne"), "two @Test methods named secondOne"),
        (FULL.replace("a } ", "\\u0061 } "), "a unicode escape (\\u0061) on line 32"),
        (FULL.replace("twice(base), ", "twice(base, "), "an unbalanced '}' on line 28"),
        (FULL.replace('"MorePagesTest {"', '"MorePagesTest {'), "unclosed literal on line 27"),
        (FULL.replace("static final class Fixture {", "static final class Fixture {\n @Test void x() {}"),
         "a @Test inside a nested member on line 30"),
    ],
)  # fmt: skip
def test_a_source_that_is_not_plain_tests_is_named(source: str, error: str) -> None:
    with pytest.raises(FileFormatError, match=re.escape(f"heldout/{SOURCE}: {error}")):
        held_out_run({SOURCE: source}, {}, set(), SEED)


def test_a_source_outside_the_test_folder_is_named() -> None:
    path = "src/main/java/com/example/paging/MorePagesTest.java"
    expected = f"canaries/{path}: held-out tests and canaries are .java files in src/test/java/"
    with pytest.raises(FileFormatError, match=re.escape(expected)):
        held_out_run({}, {path: FULL}, set(), SEED)


def test_a_source_it_cannot_cut_is_one_line_of_suite_check(
    maven: ToolchainStatus, tmp_path: Path
) -> None:
    """``garuda suite check`` names the task's file and line as the task's problem (exit 2),
    not a traceback; no Maven runs, the source is refused before the check."""
    root = tmp_path / "java"
    for item in ("shared", "suite.toml", "01-paginator-boundary"):
        copy = shutil.copytree if (SUITE_ROOT / item).is_dir() else shutil.copy
        copy(SUITE_ROOT / item, root / item)
    held = root / "01-paginator-boundary" / "heldout" / SOURCE
    held.write_text(held.read_text().replace("@Test", "@RepeatedTest(2)", 1))

    done = run_garuda(
        "suite", "check", str(root), "--executor", "host", "--repeat", "1", cwd=tmp_path
    )

    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert (
        f"- cannot be judged: heldout/{SOURCE}: @RepeatedTest on line 15: "
        "held-out tests are plain @Test methods"
    ) in done.stdout


def test_comments_and_literals_keep_their_places() -> None:
    source = 'int a = 1; /* x\n y */ String s = "/* no"; // gone\n// only\n\nchar c = \'"\';\n'
    seen = views(source)

    assert len(seen.code) == len(seen.mask) == len(source)
    assert seen.tidy() == 'int a = 1;\n      String s = "/* no";\n\nchar c = \'"\';\n'
    assert "/* no" not in seen.mask and seen.mask.count('"') == 2
    assert read_test_class(FULL).tests == ["firstOne", "secondOne"]


def test_surefire_reports_every_held_out_test_under_its_id(
    java_suite: FolderSuite, maven: ToolchainStatus, tmp_path: Path
) -> None:
    """The reference solution, the runner's canary and this run's held-out classes built
    and run by Maven: each id the judge looks for is there with the outcome it must have,
    and every test of the task still runs under its own id."""
    task = _task(java_suite, "paginator-boundary")
    assert task.solution is not None and task.expected_tests is not None
    assert isinstance(task.held_out, HeldOut)
    runner = SurefireCheckRunner()
    write_files(tmp_path, task.files)
    write_files(tmp_path, dict(task.solution.files))
    canaries = runner.canaries(task, tmp_path, NONCE)
    assert canaries is not None
    write_files(tmp_path, dict(canaries.files))
    run = runner.held_out(task, tmp_path, NONCE)
    assert run is not None
    write_files(tmp_path, dict(run.files))

    done = subprocess.run(
        "mvn -B -q -o test", shell=True, cwd=tmp_path, env=check_environment(),
        capture_output=True, text=True, check=False,
    )  # fmt: skip

    assert done.returncode != 0
    cases = {case.id: case.outcome for case in read_junit((tmp_path / REPORT_DIR,)).cases}
    planted = {canaries.must_fail: "failed", canaries.must_pass: "passed"}
    planted |= dict.fromkeys(run.must_pass, "passed") | dict.fromkeys(run.must_fail, "failed")
    expected = dict.fromkeys(task.expected_tests, "passed") | planted
    assert cases == expected
