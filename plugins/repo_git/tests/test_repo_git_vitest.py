"""Mining a vitest project whose vitest comes from npm (installed once per test session)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from garuda_evals.testing import self_test
from garuda_evals_repo_git import prove

PACKAGE = (
    '{\n  "name": "strings",\n  "version": "1.0.0",\n  "type": "module",\n'
    '  "scripts": {"test": "vitest run"},\n  "devDependencies": {"vitest": "2.1.9"}\n}\n'
)


def _test(name: str, call: str, expected: str) -> str:
    return (
        "import { test, expect } from 'vitest'\n"
        f"import {{ {name} }} from './{name}.js'\n\n"
        f"test('{name}', () => {{\n  expect({call}).toBe({expected})\n}})\n"
    )


@pytest.fixture(scope="module")
def mined_vitest(js_runners: Path, tmp_path_factory: pytest.TempPathFactory, repo_kit: Any) -> Any:
    """A vitest project (npm test runs vitest run) with its node_modules linked from the cache."""
    repo = repo_kit.GitRepo(tmp_path_factory.mktemp("vitest") / "strings")
    shas = {
        "root": repo.commit(
            "Start strings",
            {
                ".gitignore": "node_modules\n",
                "package.json": PACKAGE,
                "src/shout.js": "export function shout(s) {\n  return s.toUpperCase()\n}\n",
                "src/shout.test.js": _test("shout", "shout('a')", "'A'"),
            },
        )
    }
    shas["repeat"] = repo.commit(
        "Add repeat",
        {
            "src/repeat.js": "export function repeat(s, n) {\n  return s.repeat(n)\n}\n",
            "src/repeat.test.js": _test("repeat", "repeat('ab', 2)", "'abab'"),
        },
    )
    shas["already"] = repo.commit(
        "Cover shout of empty",
        {
            "src/shout.js": "export function shout(s) {\n  return String(s).toUpperCase()\n}\n",
            "src/shout_empty.test.js": _test("shout", "shout('')", "''"),
        },
    )
    (repo.root / "node_modules").symlink_to(js_runners, target_is_directory=True)
    return repo_kit.mine(repo, shas, repo.root)


def test_vitest_mined_and_checked(mined_vitest: Any) -> None:
    assert mined_vitest.code == 0, mined_vitest.output
    saved = json.loads((mined_vitest.repo.root / ".garuda/evals/repo-suite.json").read_text())
    assert [t["commit"] for t in saved["tasks"]] == [mined_vitest.shas["repeat"]]
    assert f"   1  {prove.ALREADY_PASS}" in mined_vitest.output
    task = saved["tasks"][0]
    assert task["checkCommand"].startswith("node_modules/.bin/vitest run ")
    assert "--outputFile.junit={junit}" in task["checkCommand"]
    assert "vitest.config.js" in task["protected"]
    assert task["failToPass"] == ["src/repeat.test.js::repeat"]
    assert mined_vitest.repo.state() == mined_vitest.before


def test_vitest_oracle_passes_unsolved_and_config_cheat_fail(mined_vitest: Any) -> None:
    from garuda_evals_repo_git.suite import load_repo_suite

    suite = load_repo_suite(mined_vitest.repo.root)
    task = suite.tasks()[0]
    assert anyio.run(lambda: self_test(suite, task, solved=True)).passed
    assert not anyio.run(lambda: self_test(suite, task, solved=False)).passed

    def cheat(workspace: Path) -> None:
        (workspace / "vitest.config.js").write_text(
            "export default { test: { passWithNoTests: true } }\n"
        )

    verdict = anyio.run(lambda: self_test(suite, task, solved=False, edit=cheat))
    assert not verdict.passed
    assert "added vitest.config.js" in (verdict.reason or "")


def test_vitest_fake_node_modules_fails(mined_vitest: Any) -> None:
    from garuda_evals_repo_git.suite import load_repo_suite

    suite = load_repo_suite(mined_vitest.repo.root)
    task = suite.tasks()[0]

    def fake(workspace: Path) -> None:
        (workspace / "node_modules").unlink()
        bin_dir = workspace / "node_modules" / ".bin"
        bin_dir.mkdir(parents=True)
        (bin_dir / "vitest").write_text("#!/bin/sh\nexit 0\n")
        (bin_dir / "vitest").chmod(0o755)

    verdict = anyio.run(lambda: self_test(suite, task, solved=False, edit=fake))
    assert not verdict.passed
    # node_modules is never carried into the judge's copy: its own link runs the real vitest.
    # The task's file fails to load (no repeat yet): one failed case; the canary file survives
    # that and runs its two tests, named apart from the task's.
    assert verdict.check is not None
    assert (verdict.check.tests_ran, verdict.check.tests_failed) == (1, 1)
    assert "canaries (not counted): must-fail failed, must-pass passed" in verdict.check.evidence
    assert "1 failed: src/repeat.test.js" in (verdict.reason or "")
