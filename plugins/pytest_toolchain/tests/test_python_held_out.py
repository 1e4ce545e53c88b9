"""Held-out pytest tests renamed for one run: one test to a file, names drawn at random, and
ids that real pytest reports as the judge reads them."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

from garuda_evals.checks.junit import read_junit
from garuda_evals.models.task import HeldOut
from garuda_evals.suites.base import Suite, write_files
from garuda_evals_python.canary_text import WORDS
from garuda_evals_python.held_out import held_out_run
from garuda_evals_python.runner import PytestCheckRunner

SOURCE = """from calc import add

BASE = 40


def helper(n):
    return BASE + n


@pytest.mark.timeout(5)
def test_adds_two(x=None):
    assert add(BASE, 2) == {two}


class TestMore:
    def test_adds_helper(self):
        assert add(helper(1), 1) == {one}

    def test_adds_zero(self):
        assert add(0, 0) == {zero}

    def other(self):
        return 1

"""
HELD = {"tests/test_more.py": "import pytest\n" + SOURCE.format(two=42, one=42, zero=0)}
CANARIES = {"tests/test_more.py": "import pytest\n" + SOURCE.format(two=43, one=41, zero=1)}
FILES = {
    "src/calc.py": "def add(a, b):\n    return a + b\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
    "pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["src"]\ntestpaths = ["tests"]\n',
}


def test_each_test_is_a_file_of_its_own_named_like_the_canaries() -> None:
    run = held_out_run(HELD, CANARIES, set(FILES), random.Random(5))
    assert len(run.files) == 4 and len(run.must_pass) == 3 and len(run.must_fail) == 3
    for path, text in run.files.items():
        folder, _, name = path.rpartition("/")
        assert folder == "tests" and re.fullmatch(r"test_[a-z]+(_\d+)?\.py", name), path
        assert name.removeprefix("test_").removesuffix(".py").split("_")[0] in WORDS
        assert text.startswith("import pytest\nfrom calc import add\n\nBASE = 40\n")
        assert "def helper(n):" in text
        assert len(re.findall(r"^def test_|^    def test_", text, re.M)) in (1, 2)
    assert set(run.must_pass.values()) == {
        "tests/test_more.py::test_adds_two",
        "tests/test_more.py::TestMore::test_adds_helper",
        "tests/test_more.py::TestMore::test_adds_zero",
    }
    for test in [*run.must_pass, *run.must_fail]:
        assert re.fullmatch(
            r"tests\.test_[a-z_0-9]+(\.Test[A-Z][a-z]+[A-Z][a-z]+)?::test_[a-z_]+", test
        )


def test_a_held_out_file_and_its_canary_differ_only_in_the_values() -> None:
    run = held_out_run(HELD, CANARIES, (), random.Random(5))
    kinds = {path: test in run.must_pass for test in run.must_pass for path in [_file(test)]}
    kinds |= {_file(test): False for test in run.must_fail}

    def shape(text: str) -> str:
        named = re.sub(r"\b(test_[a-z_]+|Test[A-Za-z]+)\b", "NAME", text)
        return re.sub(r"\b\d+\b", "0", named)

    shapes = {(shape(text), kinds[path]) for path, text in run.files.items()}
    assert {kind for _, kind in shapes} == {True, False}
    assert len({text for text, _ in shapes}) == 2, "a test's file and its canary's differ"


def _file(test: str) -> str:
    module = test.split("::")[0].split(".Test")[0]
    return module.replace(".", "/") + ".py"


def test_names_are_drawn_at_random_not_from_the_nonce() -> None:
    """The same generator gives the same files, another one others; without one, the
    system's randomness (the run's nonce is in the runner's canary file, readable by code
    under test: names drawn from it could be redone)."""
    one = held_out_run(HELD, CANARIES, (), random.Random(5))
    assert one == held_out_run(HELD, CANARIES, (), random.Random(5))
    assert set(one.files) != set(held_out_run(HELD, CANARIES, (), random.Random(6)).files)
    drawn = {frozenset(held_out_run(HELD, CANARIES, ()).files) for _ in range(3)}
    assert len(drawn) > 1


def test_names_never_take_a_path_already_there() -> None:
    taken = {f"tests/test_{word}.py" for word in WORDS}
    run = held_out_run(HELD, CANARIES, taken, random.Random(5))
    assert not set(run.files) & taken
    assert all(re.fullmatch(r"tests/test_[a-z]+_\d+\.py", path) for path in run.files)


def test_real_pytest_reports_every_id_as_the_judge_reads_it(
    python_suite: Suite, tmp_path: Path
) -> None:
    """Held-out files beside a task's own tests and the runner's canary: pytest reports each
    held-out test passed and each canary failed, under the ids the run named."""
    write_files(tmp_path, FILES)
    runner = PytestCheckRunner()
    task = next(iter(python_suite.tasks())).model_copy(
        update={"files": FILES, "held_out": HeldOut(tests=HELD, canaries=CANARIES)}
    )
    canary = runner.canaries(task, tmp_path, "nonce-7")
    assert canary is not None
    write_files(tmp_path, dict(canary.files))
    run = runner.held_out(task, tmp_path, "nonce-7")
    assert run is not None and not set(run.files) & {*FILES, *canary.files}
    write_files(tmp_path, dict(run.files))
    report = tmp_path / "report.xml"
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}"],
        cwd=tmp_path,
        capture_output=True,
        check=False,
    )
    outcomes = {case.id: case.outcome for case in read_junit((report,)).cases}
    assert {test: outcomes.get(test) for test in run.must_pass} == dict.fromkeys(
        run.must_pass, "passed"
    )
    assert {test: outcomes.get(test) for test in run.must_fail} == dict.fromkeys(
        run.must_fail, "failed"
    )


def test_every_task_has_three_held_out_tests_with_two_canaries_each(python_suite: Suite) -> None:
    for task in python_suite.tasks():
        assert task.held_out is not None, task.id
        run = held_out_run(task.held_out.tests, task.held_out.canaries, set(task.files))
        assert len(run.must_pass) >= 3, task.id
        assert len(run.must_fail) >= 2 * len(run.must_pass), task.id
