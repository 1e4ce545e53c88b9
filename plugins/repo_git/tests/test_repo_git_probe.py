"""Before mining, a probe at HEAD; during it, progress lines; after it, the no-leak assertion."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from garuda_evals.testing import run_garuda
from garuda_evals_repo_git.builder import GitSuiteBuilder
from garuda_evals_repo_git.mining import progress_bar
from garuda_evals_repo_git.noleak import leaked
from garuda_evals_repo_git.suite import load_repo_suite
from garuda_evals_repo_git.workspace import build_workspace


def test_the_probe_reports_what_ran_at_head(repo_kit: Any, tmp_path: Path) -> None:
    repo = repo_kit.GitRepo(tmp_path / "mathjs")
    mined = repo_kit.mine(repo, repo_kit.node_history(repo), repo.root)
    assert mined.code == 0, mined.output
    lines = mined.output.splitlines()
    probe = next(line for line in lines if line.startswith("Probe at HEAD"))
    # one file, the smallest of the candidates' (the quickest run that shows tests are found)
    sizes = {
        line.split("\t")[1]: int(line.split()[3])
        for line in repo.git("ls-tree", "-r", "-l", "HEAD").splitlines()
    }
    named = probe.split("(1 test file(s): ")[1].split(")")[0]
    assert named in sizes and named.endswith(".test.js"), probe
    assert all(sizes[named] <= sizes[f"test/{name}.test.js"] for name in ("mean", "min")), sizes
    assert "1 test(s) found, 1 passed, exit code 0" in probe
    assert lines.index(probe) < next(i for i, line in enumerate(lines) if line.startswith("[1/"))
    assert "No leak: the folders of the 3 task(s) hold no git object" in mined.output


def test_a_command_that_reports_no_test_stops_before_any_proof(
    repo_kit: Any, tmp_path: Path
) -> None:
    repo = repo_kit.GitRepo(tmp_path / "mathjs")
    repo_kit.node_history(repo)
    built = run_garuda(
        "eval", "--from-git", "--test-command", "echo {junit} {files}", cwd=repo.root
    )
    assert built.returncode == 1, built.stdout + built.stderr
    assert "Probe at HEAD" in built.stdout and "0 test(s) found" in built.stdout
    assert "the test command found no test at HEAD" in built.stderr
    assert "[1/" not in built.stdout, "nothing is proved"


SLOW_TEST = (
    "const test = require('node:test');\nconst assert = require('node:assert');\n"
    "const { twice } = require('../src/twice.js');\n\n"
    "test('twice', async () => {\n  await new Promise((done) => setTimeout(done, 1500));\n"
    "  assert.strictEqual(twice(2), 4);\n});\n"
)


def test_a_long_proof_shows_which_run_it_is_in(repo_kit: Any, tmp_path: Path) -> None:
    repo = repo_kit.GitRepo(tmp_path / "slow")
    package = '{"name": "slow", "scripts": {"test": "node --test"}}\n'
    repo.commit("Start", {"package.json": package, "src/twice.js": "module.exports = {};\n"})
    sha = repo.commit(
        "Add twice",
        {
            "src/twice.js": "module.exports = { twice: (n) => n * 2 };\n",
            "test/twice.test.js": SLOW_TEST,
        },
    )
    lines: list[str] = []
    builder = GitSuiteBuilder(commit_runs=1, parent_runs=1, progress_every_s=0.4)
    assert builder.build({}, cwd=repo.root, echo=lines.append) == 0, "\n".join(lines)
    progress = [line for line in lines if line.startswith(f"  ... {sha[:12]}: in its ")]
    assert any("parent run 1/1 for" in line for line in progress), lines
    assert any("commit run 1/1 for" in line for line in progress), lines
    bars = [line for line in lines if line.startswith("  [") and "candidates done" in line]
    assert bars and bars[0].endswith("0/1 candidates done, 0 kept, 0s elapsed, no estimate yet")
    assert bars[0].startswith("  [" + "." * 20 + "]"), bars


def test_the_progress_bar_estimates_the_time_left() -> None:
    bar = progress_bar(done=5, total=20, kept=2, elapsed=70)
    assert bar == (
        "[#####...............] 5/20 candidates done, 2 kept, 1m10s elapsed, about 3m30s left"
    )
    assert progress_bar(20, 20, 9, 3).startswith("[" + "#" * 20 + "] 20/20")


def test_a_probe_that_times_out_is_said_to_and_mining_goes_on(
    repo_kit: Any, tmp_path: Path
) -> None:
    """A run longer than the limit is a timeout, not "no test found" (which stops the build)."""
    repo = repo_kit.GitRepo(tmp_path / "slow")
    package = '{"name": "slow", "scripts": {"test": "node --test"}}\n'
    repo.commit("Start", {"package.json": package, "src/twice.js": "module.exports = {};\n"})
    repo.commit(
        "Add twice",
        {
            "src/twice.js": "module.exports = { twice: (n) => n * 2 };\n",
            "test/twice.test.js": SLOW_TEST,
        },
    )
    lines: list[str] = []
    builder = GitSuiteBuilder(commit_runs=1, parent_runs=1, run_timeout_s=0.5)
    assert builder.build({"mutants": 0}, cwd=repo.root, echo=lines.append) == 1
    output = "\n".join(lines)
    assert "The probe timed out after 0.5 s" in output, output
    assert "[1/1]" in output, "the candidates are still proved"


def test_the_no_leak_assertion_catches_a_clone(repo_kit: Any, tmp_path: Path) -> None:
    """The task folder as runs build it holds no later object; a clone at the parent does."""
    repo = repo_kit.GitRepo(tmp_path / "mathjs")
    mined = repo_kit.mine(repo, repo_kit.node_history(repo), repo.root)
    assert mined.code == 0, mined.output
    suite = load_repo_suite(repo.root)
    saved = next(t for t in suite.saved.tasks if t.commit == mined.shas["max"])
    head = repo.head()
    folder = tmp_path / "task"
    folder.mkdir()
    build_workspace(repo.root, saved, folder, [])
    assert leaked(repo.root, folder, saved.parent, head) == set()
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(repo.root), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", saved.parent], check=True)
    found = leaked(repo.root, clone, saved.parent, head)
    assert saved.commit in found and head in found
