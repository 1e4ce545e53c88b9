"""Task strength: weak tests accept wrong variants of the fix, strong ones reject them."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from garuda_evals.testing import run_garuda
from garuda_evals_repo_git.mutants import mutants

PYPROJECT = '[project]\nname = "grades"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\n'
GRADE = """

def grade(score):
    if score >= 90:
        return "A"
    if score >= 75:
        return "B"
    return "C"
"""
TEST_GRADE = """from grades import grade


def test_grade_bounds():
    assert grade(100) == "A"
    assert grade(90) == "A"
    assert grade(89) == "B"
    assert grade(75) == "B"
    assert grade(74) == "C"
    assert grade(0) == "C"
"""
DISCOUNT = """

def discount(price, percent):
    if percent > 100:
        percent = 100
    return price * (100 - percent) / 100
"""
TEST_DISCOUNT = """from grades import discount


def test_discount_returns_something():
    assert discount(200, 10) is not None
"""
BASE = "def identity(x):\n    return x\n"


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory, repo_kit: Any) -> SimpleNamespace:
    repo = repo_kit.GitRepo(tmp_path_factory.mktemp("strength") / "grades")
    repo.commit(
        "Start",
        {
            ".gitignore": ".venv\n__pycache__/\n",
            "pyproject.toml": PYPROJECT,
            "src/grades.py": BASE,
            "tests/test_identity.py": "from grades import identity\n\n\ndef test_identity():\n"
            "    assert identity(1) == 1\n",
        },
    )
    strong = repo.commit(
        "Add grade", {"src/grades.py": BASE + GRADE, "tests/test_grade.py": TEST_GRADE}
    )
    weak = repo.commit(
        "Add discount",
        {"src/grades.py": BASE + GRADE + DISCOUNT, "tests/test_discount.py": TEST_DISCOUNT},
    )
    (repo.root / ".venv").symlink_to(Path(__import__("sys").prefix), target_is_directory=True)
    mined = repo_kit.mine(repo, {}, repo.root, parallel=2)
    saved = json.loads((repo.root / ".garuda/evals/repo-suite.json").read_text())
    return SimpleNamespace(
        repo=repo,
        mined=mined,
        saved={t["commit"]: t for t in saved["tasks"]},
        strong=strong,
        weak=weak,
    )


def test_weak_tests_get_a_low_strength_and_strong_ones_a_high_one(graded: Any) -> None:
    assert graded.mined.code == 0, graded.mined.output
    strong, weak = graded.saved[graded.strong], graded.saved[graded.weak]
    assert strong["mutants"] >= 4 and weak["mutants"] >= 4, graded.mined.output
    assert strong["strength"] >= 0.8, graded.mined.output
    assert weak["strength"] <= 0.3, graded.mined.output
    lines = graded.mined.output.splitlines()
    line = next(x for x in lines if x.startswith("strength") and graded.weak[:12] in x)
    assert "survivors: " in line and "comparison flipped" in graded.mined.output


def test_min_strength_keeps_only_strong_tasks(graded: Any) -> None:
    built = run_garuda("eval", "--from-git", "--min-strength", "0.5", cwd=graded.repo.root)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "strength below --min-strength 0.5" in built.stdout
    saved = json.loads((graded.repo.root / ".garuda/evals/repo-suite.json").read_text())
    assert [t["commit"] for t in saved["tasks"]] == [graded.strong]
    assert "(cached)" in built.stdout, "verdicts and strengths come from the cache"


def test_min_strength_replaces_a_weak_task_with_a_strong_older_one(graded: Any) -> None:
    """``--max-tasks 1``: the newest kept task is the weak one; it is replaced by proving the
    next candidate, so one strong task is saved (before, nothing was)."""
    built = run_garuda(
        "eval", "--from-git", "--max-tasks", "1", "--min-strength", "0.5", cwd=graded.repo.root
    )
    assert built.returncode == 0, built.stdout + built.stderr
    assert "0 of 1 task(s) reach --min-strength 0.5 and pass the sandbox check: proving more " in (
        built.stdout
    )
    saved = json.loads((graded.repo.root / ".garuda/evals/repo-suite.json").read_text())
    assert [t["commit"] for t in saved["tasks"]] == [graded.strong]
    assert "Kept 1 task(s) of 2 candidate(s) proved" in built.stdout, built.stdout


def test_strength_in_the_listing_and_the_report(graded: Any) -> None:
    listed = run_garuda("eval", "--list", cwd=graded.repo.root)
    assert "strength median" in listed.stdout, listed.stdout
    ran = run_garuda(
        "eval", "-s", "repo", "--agent", "oracle", "--executor", "host", cwd=graded.repo.root
    )
    assert "task strength" in ran.stdout, ran.stdout + ran.stderr
    report = sorted(graded.repo.root.glob(".garuda/evals/*/report.json"))[-1]
    rows = json.loads(report.read_text())["results"]
    assert all(row["strength"] is not None for row in rows), rows


def test_mutants_of_a_change() -> None:
    before = "def f(x):\n    return x\n"
    after = (
        "def f(x):\n    if x > 3:\n        return True\n    return x\n\n\ndef g():\n    return 1\n"
    )
    labels = [m.label for m in mutants({"m.py": (before, after)})]
    assert any("comparison flipped" in label for label in labels)
    assert any("integer + 1" in label for label in labels)
    assert any("true/false swapped" in label for label in labels)
    assert any("statement deleted" in label for label in labels)
    assert any("hunk" in label for label in labels), "two hunks: each is undone alone"
    assert len(mutants({"m.py": (before, after)}, limit=3)) == 3


def test_min_strength_stops_replacing_at_three_times_max_tasks(
    tmp_path: Path, repo_kit: Any
) -> None:
    """Four weak commits, ``--max-tasks 1``: three are proved and measured, the fourth never
    is (the bound), and nothing is saved."""
    from garuda_evals_repo_git.builder import GitSuiteBuilder

    repo = repo_kit.GitRepo(tmp_path / "weak")
    code = BASE
    repo.commit(
        "Start",
        {".gitignore": ".venv\n", "pyproject.toml": PYPROJECT, "src/grades.py": code},
    )
    for n in range(4):
        code += f"\n\ndef f{n}(x):\n    if x > {n + 3}:\n        return x + 1\n    return x\n"
        repo.commit(
            f"Add f{n}",
            {
                "src/grades.py": code,
                f"tests/test_f{n}.py": f"from grades import f{n}\n\n\ndef test_f{n}():\n"
                f"    assert f{n}(1) is not None\n",
            },
        )
    (repo.root / ".venv").symlink_to(Path(__import__("sys").prefix), target_is_directory=True)
    lines: list[str] = []
    options = {"max_tasks": 1, "min_strength": 0.9, "mutants": 2, "parallel": 1}
    built = GitSuiteBuilder(commit_runs=1, parent_runs=1).build(
        options, cwd=repo.root, echo=lines.append
    )
    output = "\n".join(lines)
    assert built == 1, output
    assert "3 task(s) measured, 3 x --max-tasks: no more candidates" in output, output
    assert "Kept 0 task(s) of 3 candidate(s) proved (4 after the file rules)" in output, output
    assert "3  strength below --min-strength 0.9" in output, output


def test_a_mutant_run_stops_at_its_first_failing_test(tmp_path: Path, repo_kit: Any) -> None:
    """A failure rejects a mutant: the tests after it are not run (only survivors run all)."""
    import sys

    import anyio

    from garuda_evals_repo_git.candidates import candidate_or_reason
    from garuda_evals_repo_git.gitcmd import recent_commits
    from garuda_evals_repo_git.prove import Prover
    from garuda_evals_repo_git.runners import TestCommand
    from garuda_evals_repo_git.strength import measure

    marks = tmp_path / "marks"
    test = (
        "import sys\nfrom pathlib import Path\n\n"
        "sys.path.insert(0, str(Path(__file__).parents[1] / 'src'))\n"
        "from grades import grade\n\n\n"
        + TEST_GRADE.split("\n", 1)[1]
        + f"\n\ndef test_later():\n    open({str(marks)!r}, 'a').write('ran\\n')\n"
    )
    repo = repo_kit.GitRepo(tmp_path / "grades")
    repo.commit("Start", {"src/grades.py": BASE})
    repo.commit("Add grade", {"src/grades.py": BASE + GRADE, "tests/test_grade.py": test})
    command = TestCommand(
        base="python -m pytest", kind="pytest", prefix=f"{sys.executable} -m pytest"
    )
    candidate = candidate_or_reason(repo.root, recent_commits(repo.root, 1, None)[0], command)
    assert not isinstance(candidate, str), candidate
    prover = Prover(repo.root, command, {"PATH": "/usr/bin:/bin"})
    found = anyio.run(measure, prover, candidate, [], 2, 12)
    assert found.mutants >= 4 and found.rejected >= 3, found
    ran = marks.read_text().split() if marks.exists() else []
    assert len(ran) == len(found.survivors), (ran, found)
