"""The build's options: --since, --max-tasks, --test-command with {files} and {junit}."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio

from garuda_evals.testing import self_test
from garuda_evals_repo_git import prove, rules
from garuda_evals_repo_git.builder import GitSuiteBuilder
from garuda_evals_repo_git.cache import VerdictCache
from garuda_evals_repo_git.gitcmd import Commit
from garuda_evals_repo_git.mining import PROOF_ERROR, mine
from garuda_evals_repo_git.prove import Candidate, Prover
from garuda_evals_repo_git.runners import classify
from garuda_evals_repo_git.suite import load_repo_suite

CUSTOM = ".venv/bin/python -m pytest -q -p no:cacheprovider --junitxml={junit} {files}"


def _good(repo: Any, name: str, body: str, expected: int) -> str:
    module = repo.root / "src" / "ops.py"
    current = module.read_text() if module.exists() else ""
    return repo.commit(
        f"Add {name}",
        {
            "src/ops.py": current + f"\n\ndef {name}(a):\n    return {body}\n",
            f"tests/test_{name}.py": f"from ops import {name}\n\n\ndef test_{name}():\n"
            f"    assert {name}(3) == {expected}\n",
        },
    )


def test_since_max_tasks_and_a_custom_command(
    git_repo: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    repo = git_repo(tmp_path / "ops")
    (repo.root / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2020-01-01T00:00:00")
    repo.commit(
        "Start",
        {
            ".gitignore": ".venv\n",
            "pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["src"]\n',
        },
    )
    old = _good(repo, "double", "a * 2", 6)
    monkeypatch.delenv("GIT_COMMITTER_DATE")
    middle = _good(repo, "triple", "a * 3", 9)
    newest = _good(repo, "square", "a * a", 9)
    lines: list[str] = []
    options = {"since": "2021-01-01", "max_tasks": 1, "test_command": CUSTOM, "parallel": 1}
    assert GitSuiteBuilder().build(options, cwd=repo.root, echo=lines.append) == 0
    output = "\n".join(lines)
    assert "2 commits read, 2 candidates" in output
    assert "(given)" in output
    assert old[:12] not in output and f"] {middle[:12]}" not in output, "not read, not proved"
    assert f"back to {middle[:12]} Add triple (--since)." in output, output
    saved = json.loads((repo.root / ".garuda/evals/repo-suite.json").read_text())
    assert [t["commit"] for t in saved["tasks"]] == [newest]
    task = saved["tasks"][0]
    assert task["checkCommand"] == CUSTOM.replace("{files}", "tests/test_square.py")
    assert task["checkRunner"] == "junit"
    assert task["failToPass"] == ["tests.test_square::test_square"]
    suite = load_repo_suite(repo.root)
    assert anyio.run(lambda: self_test(suite, suite.tasks()[0], solved=True)).passed


def test_nothing_kept_saves_nothing(git_repo: Any, tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "docs")
    repo.commit("Start", {"package.json": '{"scripts": {"test": "node --test"}}\n'})
    repo.commit("Describe", {"README.md": "# docs\n"})
    lines: list[str] = []
    assert GitSuiteBuilder().build({}, cwd=repo.root, echo=lines.append) == 1
    assert lines[-4:] == [
        "\nKept 0 task(s) of 0 candidate(s) proved (0 after the file rules); nothing saved.",
        "Skipped:",
        "     1  no test change",
        "     1  the first commit (no parent)",
    ]
    assert not (repo.root / ".garuda" / "evals" / "repo-suite.json").exists()


FLAKY_AT_PARENT = """from pathlib import Path

import ops


def test_half():
    counter = Path(".runs")
    runs = int(counter.read_text()) if counter.exists() else 0
    counter.write_text(str(runs + 1))
    assert runs % 2 == 1 or ops.half(4) == 2
"""
SKIPPED_ONLY = """import pytest

from ops import third


@pytest.mark.skip(reason="not yet")
def test_third():
    assert third(9) == 3
"""


def test_flaky_parent_no_passing_test_and_not_text(git_repo: Any, tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "ops")
    (repo.root / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    pyproject = '[tool.pytest.ini_options]\npythonpath = ["src"]\n'
    repo.commit("Start", {".gitignore": ".venv\n", "pyproject.toml": pyproject, "src/ops.py": ""})
    flaky = repo.commit(
        "Add half",
        {"src/ops.py": "def half(a):\n    return a / 2\n", "tests/test_half.py": FLAKY_AT_PARENT},
    )
    skipped = repo.commit(
        "Add third",
        {
            "src/ops.py": "def half(a):\n    return a / 2\n\n\ndef third(a):\n    return a / 3\n",
            "tests/test_third.py": SKIPPED_ONLY,
        },
    )
    latin = repo.commit(
        "Name in Latin-1",
        {
            "src/names.py": "NAME = 'Jos\xe9'\n".encode("latin-1"),
            "tests/test_names.py": "from names import NAME\n\n\ndef test_name():\n"
            "    assert NAME\n",
        },
    )
    lines: list[str] = []
    code = GitSuiteBuilder().build({}, cwd=repo.root, echo=lines.append)
    assert code == 1, "\n".join(lines)
    output = "\n".join(lines)
    assert f"{flaky[:12]} Add half: skipped: {prove.FLAKY_PARENT}" in output
    assert f"{skipped[:12]} Add third: skipped: {prove.NO_EVIDENCE}" in output
    assert f"   1  {rules.NOT_TEXT}" in output
    assert f"] {latin[:12]}" not in output


def test_a_proof_that_cannot_run_is_reported_and_not_cached(git_repo: Any, tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "gone")
    repo.commit("Start", {"a.py": "x = 1\n"})
    missing = Commit(sha="1" * 40, parent="2" * 40, subject="Vanished", message="Vanished")
    candidate = Candidate(
        missing, {"tests/test_a.py": "def test_a():\n    pass\n"}, [], ["tests/test_a.py"]
    )
    prover = Prover(repo.root, classify("python3 -m pytest", None), dict(os.environ))
    cache = VerdictCache(repo.root)
    lines: list[str] = []
    outcomes = anyio.run(mine, prover, [candidate], cache, 5, 1, lines.append)
    assert outcomes["1" * 40].verdict.reason == PROOF_ERROR
    assert "failed to unpack tree object" in outcomes["1" * 40].verdict.failure_tail
    assert cache.get("1" * 40, "python3 -m pytest") is None
    assert lines == [f"[1/1] {'1' * 12} Vanished: skipped: {PROOF_ERROR}"]


def test_min_strength_with_no_mutants_is_refused(tmp_path: Path) -> None:
    """Every task would be below the bar: refused before anything runs (exit 1)."""
    from garuda_evals.testing import run_garuda

    built = run_garuda(
        "eval", "--from-git", "--min-strength", "0.5", "--mutants", "0", cwd=tmp_path
    )
    assert built.returncode == 1, built.stdout + built.stderr
    assert "--min-strength needs each task's strength, and --mutants 0" in built.stderr
