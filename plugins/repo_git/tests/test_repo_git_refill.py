"""A task dropped after its proof is replaced: older candidates, older commits, cached checks."""

from __future__ import annotations

import json
import os
import re
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from garuda_evals_repo_git.builder import GitSuiteBuilder
from garuda_evals_repo_git.sandboxcheck import FAILS_SOLVED, environment_digest
from garuda_evals_repo_git.suitefile import SUITE_FILE, RepoTask

PYPROJECT = '[project]\nname = "nums"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\n'
BASE = "def identity(x):\n    return x\n"
DOUBLE = "\n\ndef double(x):\n    return x * 2\n"
HALF = "\n\ndef half(x):\n    return x // 2\n"
STAMP = '\n\ndef stamp():\n    return "nums"\n'


def _test(name: str, call: str, value: str) -> str:
    return f"from nums import {name}\n\n\ndef test_{name}():\n    assert {call} == {value}\n"


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory, repo_kit: Any) -> Iterator[SimpleNamespace]:
    """Start, double, half, then a stamp whose test writes where the sandbox forbids."""
    stamp_path = Path(f"/var/tmp/garuda-refill-{uuid.uuid4().hex}.txt")
    stamp_test = (
        "from pathlib import Path\n\nfrom nums import stamp\n\n\ndef test_stamp():\n"
        f"    Path({str(stamp_path)!r}).write_text(stamp())\n"
    )
    repo = repo_kit.GitRepo(tmp_path_factory.mktemp("refill") / "nums")
    repo.commit(
        "Start",
        {".gitignore": ".venv\n__pycache__/\n", "pyproject.toml": PYPROJECT, "src/nums.py": BASE},
    )
    code = BASE + DOUBLE
    double = repo.commit(
        "Add double",
        {"src/nums.py": code, "tests/test_double.py": _test("double", "double(2)", "4")},
    )
    code += HALF
    half = repo.commit(
        "Add half", {"src/nums.py": code, "tests/test_half.py": _test("half", "half(5)", "2")}
    )
    stamped = repo.commit(
        "Write a stamp", {"src/nums.py": code + STAMP, "tests/test_stamp.py": stamp_test}
    )
    (repo.root / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    try:
        yield SimpleNamespace(repo=repo, double=double, half=half, stamped=stamped)
    finally:
        stamp_path.unlink(missing_ok=True)


def _build(root: Path, commits: int = 2, max_tasks: int = 2) -> tuple[int, str, list[str]]:
    lines: list[str] = []
    options = {"commits": commits, "max_tasks": max_tasks, "mutants": 0, "parallel": 1}
    code = GitSuiteBuilder(commit_runs=1, parent_runs=1).build(options, cwd=root, echo=lines.append)
    saved = json.loads((root / SUITE_FILE).read_text()) if (root / SUITE_FILE).exists() else {}
    return code, "\n".join(lines), [task["commit"] for task in saved.get("tasks", [])]


def test_a_task_the_sandbox_drops_is_replaced_from_older_commits(history: Any) -> None:
    """--commits 2 reads the stamp (dropped in the sandbox) and half; the missing task comes
    from the commits before them, read because one was missing."""
    code, output, kept = _build(history.repo.root)
    assert code == 0, output
    assert f"{history.stamped[:10]}: dropped: {FAILS_SOLVED}" in output, output
    assert "1 of 2 task(s) pass the sandbox check: proving more candidates for 1 more" in output
    assert "Reading further back: commits 3-4 of HEAD, 1 more candidate(s)" in output, output
    assert kept == [history.half, history.double], output
    assert "Kept 2 task(s) of 3 candidate(s) proved (3 after the file rules)" in output, output
    assert "Yield: 2 of 3 candidate(s) kept (66%)" in output, output
    assert re.search(rf"^\s+1\s+{FAILS_SOLVED}$", output, re.M), output
    assert "History read: 4 commit(s) (--commits 2), back to" in output, output
    assert "Start (the start of history)." in output, output

    # built again: every proof and every sandbox verdict comes from the cache
    again, output, kept_again = _build(history.repo.root)
    assert again == 0 and kept_again == kept, output
    checked = [line for line in output.splitlines() if re.match(r"\s+\[\d/\d\] \w{10}: ", line)]
    assert len(checked) == 3 and all(line.endswith("(cached)") for line in checked), output
    assert f"{history.stamped[:10]}: dropped: {FAILS_SOLVED} (cached)" in output, output


def test_only_a_dropped_task_is_looked_for_beyond_commits(history: Any) -> None:
    """--commits 1: the stamp is dropped, so one commit more is read (half, kept); that
    replaces the drop, and the build stops short of --max-tasks 3 rather than read on."""
    code, output, kept = _build(history.repo.root, commits=1, max_tasks=3)
    assert code == 0, output
    assert kept == [history.half], output
    assert "Reading further back: commits 2-2 of HEAD, 1 more candidate(s)" in output, output
    assert "History read: 2 commit(s) (--commits 1), back to" in output, output
    assert f"] {history.double[:12]}" not in output, output


def test_the_environment_digest_follows_what_the_check_depends_on(tmp_path: Path) -> None:
    task = RepoTask(
        id="abc",
        commit="a" * 40,
        parent="b" * 40,
        subject="s",
        prompt="p",
        check_command="pytest tests/test_a.py",
        check_runner="repo-pytest",
        protected=[],
        test_files={"tests/test_a.py": "def test_a():\n    pass\n"},
        expected_tests=["tests.test_a::test_a"],
    )
    digest = environment_digest(tmp_path, "bwrap", task, [])
    assert environment_digest(tmp_path, "bwrap", task, []) == digest
    # what the judgement does not read leaves it as it is
    same = task.model_copy(update={"prompt": "other", "strength": 0.5, "mutants": 3})
    assert environment_digest(tmp_path, "bwrap", same, []) == digest
    assert environment_digest(tmp_path, "host", task, []) != digest
    other = task.model_copy(update={"check_command": "pytest tests/test_b.py"})
    assert environment_digest(tmp_path, "bwrap", other, []) != digest
    (tmp_path / ".venv").mkdir()
    with_venv = environment_digest(tmp_path, "bwrap", task, [".venv"])
    assert with_venv != digest
    stamp = (tmp_path / ".venv").stat().st_mtime_ns
    os.utime(tmp_path / ".venv", ns=(stamp + 10**9, stamp + 10**9))  # a package installed
    assert environment_digest(tmp_path, "bwrap", task, [".venv"]) != with_venv
