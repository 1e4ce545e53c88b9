"""``garuda suite check``: a broken task folder is reported by name, a sound one passes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from garuda_evals.testing import run_garuda

DATA = Path(__file__).parent / "suite_data"
BUGGY = "def add(a, b):\n    return a - b\n"
FIXED = "def add(a, b):\n    return a + b\n"
TEST = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"


def task(
    root: Path, name: str, *, test: str = TEST, solution: str = FIXED, check: str = ""
) -> None:
    """One task folder: ``src/calc.py`` buggy as shipped, ``tests/test_calc.py``."""
    folder = root / name
    (folder / "files" / "src").mkdir(parents=True)
    (folder / "files" / "tests").mkdir()
    (folder / "solution" / "src").mkdir(parents=True)
    (folder / "files" / "src" / "calc.py").write_text(BUGGY)
    (folder / "files" / "tests" / "test_calc.py").write_text(test)
    (folder / "solution" / "src" / "calc.py").write_text(solution)
    (folder / "task.toml").write_text(f'title = "{name}"\nprompt = "Fix add."\n{check}')


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    """A suite with one sound task and one task per problem the check must name."""
    root = tmp_path / "broken"
    root.mkdir()
    shutil.copy(DATA / "mini" / "suite.toml", root / "suite.toml")
    shutil.copytree(DATA / "mini" / "shared", root / "shared")
    task(root, "sound")
    task(root, "passes-unsolved", test="def test_add():\n    assert 2 + 3 == 5\n")
    task(root, "fails-solved", solution="def add(a, b):\n    return a * b\n")
    counter = tmp_path / "runs"
    flaky = (
        "from pathlib import Path\n\nfrom calc import add\n\n\n"
        "def test_add():\n    assert add(2, 3) == 5\n"
        f"    counter = Path({str(counter)!r})\n"
        "    runs = int(counter.read_text()) + 1 if counter.exists() else 1\n"
        "    counter.write_text(str(runs))\n"
        "    assert runs % 2 == 1, 'every second solved run fails'\n"
    )
    task(root, "flaky", test=flaky)
    task(root, "no-evidence", check='[check]\ncommand = "true"\nrunner = "junit"\n')
    return root


def test_each_broken_task_is_reported_by_name(broken: Path, tmp_path: Path) -> None:
    done = run_garuda(
        "suite", "check", str(broken), "--executor", "host", "--repeat", "2", cwd=tmp_path
    )
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stdout.splitlines()

    def problems_of(name: str) -> str:
        start = next(i for i, line in enumerate(lines) if line.startswith(f"{name} "))
        end = start + 1
        while end < len(lines) and lines[end].startswith(" "):
            end += 1
        return "\n".join(lines[start:end])

    assert " sound " in problems_of("sound"), done.stdout
    assert "- passes unsolved" in problems_of("passes-unsolved")
    assert "- fails solved" in problems_of("fails-solved")
    assert "- flaky: the reference solution passed 1 of 2 runs" in problems_of("flaky")
    assert "- no test evidence" in problems_of("no-evidence")
    last = lines[-1]
    assert last.startswith("suite mini: 4 of 5 task(s) have problems")
    for name in ("passes-unsolved", "fails-solved", "flaky", "no-evidence"):
        assert name in last


def test_a_sound_suite_exits_0_and_pin_records_the_expected_tests(tmp_path: Path) -> None:
    suite = tmp_path / "mini"
    shutil.copytree(DATA / "mini", suite)
    done = run_garuda(
        "suite", "check", str(suite), "--executor", "host", "--repeat", "1", "--pin", cwd=tmp_path
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "suite mini: 2 task(s) sound (host)" in done.stdout
    pins = json.loads((suite / "expected-tests.json").read_text())
    assert pins["tasks"] == {
        "add": ["tests.test_calc::test_add"],
        "greet": [pins["tasks"]["greet"][0]],
    }
    (suite / "expected-tests.json").write_text(
        json.dumps({"schemaVersion": 1, "tasks": {"add": ["tests.test_calc::test_gone"]}})
    )
    stale = run_garuda(
        "suite", "check", str(suite), "--executor", "host", "--repeat", "1", cwd=tmp_path
    )
    assert stale.returncode == 2, stale.stdout + stale.stderr
    assert "- pinned tests are stale" in stale.stdout


def test_an_unknown_task_is_one_line_and_exit_1(tmp_path: Path) -> None:
    done = run_garuda("suite", "check", str(DATA / "mini"), "-t", "nope", cwd=tmp_path)
    assert done.returncode == 1
    assert (
        done.stderr.strip().splitlines()[-1] == "garuda: error: -t nope: no such task in suite mini"
    )


def test_an_unknown_suite_is_named_without_eval_flags(tmp_path: Path) -> None:
    done = run_garuda("suite", "check", "nope", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1].startswith("garuda: error: nope: unknown suite")


def test_a_task_without_a_solution_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    suite = tmp_path / "mini"
    shutil.copytree(DATA / "mini", suite)
    shutil.rmtree(suite / "add" / "solution")
    done = run_garuda(
        "suite", "check", str(suite), "--executor", "host", "--repeat", "1", cwd=tmp_path
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert "add    PROBLEM  noop FAIL · no reference solution" in done.stdout, done.stdout
    assert f"- no reference solution: {suite / 'add' / 'solution'} is missing" in done.stdout
    assert "greet  sound" in done.stdout
    assert done.stdout.splitlines()[-1] == "suite mini: 1 of 2 task(s) have problems: add"


def test_a_folder_without_task_toml_is_named_and_fails_the_check(tmp_path: Path) -> None:
    suite = tmp_path / "mini"
    shutil.copytree(DATA / "mini", suite)
    (suite / "add" / "task.toml").rename(suite / "add" / "task.tml")
    (suite / ".git").mkdir()
    (suite / "__pycache__").mkdir()
    done = run_garuda(
        "suite", "check", str(suite), "--executor", "host", "--repeat", "1", cwd=tmp_path
    )
    assert done.returncode == 2, done.stdout + done.stderr
    stray = [line for line in done.stdout.splitlines() if "task.toml" in line]
    assert stray == [
        f"{suite / 'add'}: not a task, it has no task.toml (add one or move the folder out)",
        "suite mini: 1 folder(s) without task.toml: add",
    ], done.stdout
    assert "greet  sound" in done.stdout
    named = run_garuda("suite", "check", str(suite), "-t", "add", cwd=tmp_path)
    assert named.returncode == 1
    assert named.stderr.strip().splitlines()[-1] == (
        f"garuda: error: -t add: no such task in suite mini ({suite / 'add'} has no task.toml)"
    )


def test_pin_with_problems_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    suite = tmp_path / "mini"
    shutil.copytree(DATA / "mini", suite)
    (suite / "add" / "solution" / "src" / "calc.py").write_text(BUGGY)
    done = run_garuda(
        "suite", "check", str(suite), "--executor", "host", "--repeat", "1", "--pin", cwd=tmp_path
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert not (suite / "expected-tests.json").exists()
    lines = done.stdout.splitlines()
    assert f"--pin: {suite / 'expected-tests.json'} not written: the suite has problems" in lines
    assert lines[-1] == "suite mini: 1 of 2 task(s) have problems: add"
