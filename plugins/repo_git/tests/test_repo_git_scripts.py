"""The runner behind the test script, called directly: pnpm absent, a chained script.

A TypeScript-style library whose ``packageManager`` is pnpm and whose test script chains a
linter, vitest and a type check; its dependencies were installed with npm (vitest from npm,
once per test session) and pnpm is not on PATH. Also: ``node --test {files}`` as the seed
writes it, and a project whose runner is not installed (stopped before any proof).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import anyio
import pytest

from garuda_evals.testing import run_garuda, self_test
from garuda_evals_repo_git.suite import load_repo_suite

PACKAGE = json.dumps(
    {
        "name": "slugs",
        "version": "1.0.0",
        "type": "module",
        "packageManager": "pnpm@9.12.0",
        "scripts": {"lint": "eslint .", "test": "pnpm lint && vitest run && tsc --noEmit"},
        "devDependencies": {"vitest": "2.1.9", "eslint": "9.0.0", "typescript": "5.6.0"},
    },
    indent=2,
)
SLUG = "export function slug(s) {\n  return s.toLowerCase()\n}\n"
SLUG_FIXED = "export function slug(s) {\n  return s.trim().toLowerCase().replace(/ +/g, '-')\n}\n"
TRUNCATE = "export function truncate(s, n) {\n  return s.length > n ? s.slice(0, n) + '…' : s\n}\n"


def _test(name: str, *cases: tuple[str, str]) -> str:
    body = "\n".join(f"  expect({call}).toBe({want})" for call, want in cases)
    return (
        f"import {{ test, expect }} from 'vitest'\nimport {{ {name} }} from './{name}.js'\n\n"
        f"test('{name}', () => {{\n{body}\n}})\n"
    )


def _path_without(program: str) -> str:
    """PATH with every folder that holds ``program`` left out."""
    folders = os.environ.get("PATH", "").split(os.pathsep)
    return os.pathsep.join(f for f in folders if not (Path(f) / program).exists())


@pytest.fixture(scope="module")
def slugs(js_runners: Path, tmp_path_factory: pytest.TempPathFactory, repo_kit: Any) -> Any:
    """The pnpm project (no pnpm on PATH), mined with the detected command."""
    repo = repo_kit.GitRepo(tmp_path_factory.mktemp("pnpm") / "slugs")
    shas = {
        "root": repo.commit(
            "Start slugs",
            {
                ".gitignore": "node_modules\n",
                "package.json": PACKAGE,
                "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
                "src/slug.js": SLUG,
                "src/slug.test.js": _test("slug", ("slug('AB')", "'ab'")),
            },
        )
    }
    shas["truncate"] = repo.commit(
        "Add truncate",
        {
            "src/truncate.js": TRUNCATE,
            "src/truncate.test.js": _test(
                "truncate", ("truncate('abcdef', 3)", "'abc…'"), ("truncate('ab', 3)", "'ab'")
            ),
        },
    )
    shas["spaces"] = repo.commit(
        "Slugs join words with dashes",
        {
            "src/slug.js": SLUG_FIXED,
            "src/slug.test.js": _test("slug", ("slug('AB')", "'ab'"), ("slug(' A b ')", "'a-b'")),
        },
    )
    (repo.root / "node_modules").symlink_to(js_runners, target_is_directory=True)
    saved = os.environ["PATH"]
    os.environ["PATH"] = _path_without("pnpm")
    try:
        assert shutil.which("pnpm") is None
        return repo_kit.mine(repo, shas, repo.root)
    finally:
        os.environ["PATH"] = saved


def test_the_runner_of_a_chained_script_is_called_directly(slugs: Any) -> None:
    assert slugs.code == 0, slugs.output
    assert (
        "with 'node_modules/.bin/vitest run' (detected: the runner of package.json's test "
        "script 'pnpm lint && vitest run && tsc --noEmit', called directly)" in slugs.output
    )
    assert "Kept 2 task(s)" in slugs.output, slugs.output
    saved = json.loads((slugs.repo.root / ".garuda/evals/repo-suite.json").read_text())
    assert [t["commit"] for t in saved["tasks"]] == [slugs.shas["spaces"], slugs.shas["truncate"]]
    assert all(t["checkRunner"] == "repo-vitest" for t in saved["tasks"])


def test_the_pnpm_suite_passes_with_the_oracle_and_fails_with_noop(slugs: Any) -> None:
    suite = load_repo_suite(slugs.repo.root)
    for task in suite.tasks():
        assert anyio.run(lambda task=task: self_test(suite, task, solved=True)).passed, task.id
        assert not anyio.run(lambda task=task: self_test(suite, task, solved=False)).passed


def test_a_missing_runner_stops_before_any_proof(slugs: Any, repo_kit: Any, tmp_path: Path) -> None:
    """No node_modules: the build names the missing program and the flag, exit 1."""
    repo = repo_kit.GitRepo(tmp_path / "bare")
    repo.commit("Start", {"package.json": PACKAGE, "src/slug.js": SLUG})
    repo.commit(
        "Fix", {"src/slug.js": SLUG_FIXED, "src/slug.test.js": _test("slug", ("slug('a')", "'a'"))}
    )
    built = run_garuda("eval", "--from-git", cwd=repo.root)
    assert built.returncode == 1, built.stdout + built.stderr
    assert "cannot run the tests: node_modules/.bin/vitest is not installed here" in built.stderr
    assert '--test-command "npx vitest run {files}"' in built.stderr
    assert len(built.stderr.strip().splitlines()) == 1, built.stderr
    assert "[1/" not in built.stdout, "nothing is proved"


def test_node_test_files_as_the_seed_writes_it(repo_kit: Any, tmp_path: Path) -> None:
    """``--test-command "node --test {files}"``: garuda adds node's JUnit reporter itself."""
    repo = repo_kit.GitRepo(tmp_path / "mathjs")
    shas = repo_kit.node_history(repo)
    mined = repo_kit.mine(repo, shas, repo.root, test_command="node --test {files}")
    assert mined.code == 0, mined.output
    suite = load_repo_suite(repo.root)
    tasks = {t.metadata["commit"]: t for t in suite.tasks()}
    assert set(tasks) == {shas["max"], shas["release"], shas["mean"]}, mined.output
    task = tasks[shas["mean"]]
    assert task.check.runner == "repo-node-test"
    assert anyio.run(lambda: self_test(suite, task, solved=True)).passed
    assert not anyio.run(lambda: self_test(suite, task, solved=False)).passed


MOCHA_TEST = (
    "const assert = require('node:assert');\nconst { clamp } = require('../src/clamp.js');\n\n"
    "describe('clamp', () => {\n  it('keeps a value inside', () => assert.strictEqual(clamp(5, 0, 9), 5));\n"
    "  it('cuts a value above', () => assert.strictEqual(clamp(12, 0, 9), 9));\n});\n"
)


def test_a_mocha_project_gets_its_evidence_for_free(
    js_runners: Path, repo_kit: Any, tmp_path: Path
) -> None:
    """``"test": "c8 mocha"``: mocha is called directly with its xunit reporter."""
    repo = repo_kit.GitRepo(tmp_path / "clamp")
    package = json.dumps({"name": "clamp", "scripts": {"test": "c8 mocha"}})
    repo.commit("Start", {"package.json": package, "src/clamp.js": "module.exports = {};\n"})
    sha = repo.commit(
        "Add clamp",
        {
            "src/clamp.js": "module.exports = {\n  clamp: (x, lo, hi) => Math.min(Math.max(x, lo), hi),\n};\n",
            "test/clamp.test.js": MOCHA_TEST,
        },
    )
    (repo.root / "node_modules").symlink_to(js_runners, target_is_directory=True)
    mined = repo_kit.mine(repo, {}, repo.root, mutants=2)
    assert mined.code == 0, mined.output
    assert "with 'node_modules/.bin/mocha' (detected" in mined.output
    suite = load_repo_suite(repo.root)
    [task] = suite.tasks()
    assert task.metadata["commit"] == sha and task.check.runner == "repo-mocha"
    assert task.expected_tests == ["clamp::cuts a value above", "clamp::keeps a value inside"]
    assert anyio.run(lambda: self_test(suite, task, solved=True)).passed
    assert not anyio.run(lambda: self_test(suite, task, solved=False)).passed
