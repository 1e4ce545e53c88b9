"""Mining a jest project (jest from npm): the check reads Jest's JSON report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from garuda_evals.testing import self_test
from garuda_evals_repo_git.suite import load_repo_suite

PACKAGE = '{\n  "name": "units",\n  "version": "1.0.0",\n  "scripts": {"test": "jest"}\n}\n'
KM_TEST = (
    "const { km } = require('../src/units.js');\n\n"
    "test('metres to km', () => {\n  expect(km(1500)).toBe(1.5);\n});\n"
)


@pytest.fixture(scope="module")
def mined_jest(js_runners: Path, tmp_path_factory: pytest.TempPathFactory, repo_kit: Any) -> Any:
    """A jest project (npm test runs jest) with its node_modules linked from the cache."""
    repo = repo_kit.GitRepo(tmp_path_factory.mktemp("jest") / "units")
    shas = {
        "root": repo.commit(
            "Start units",
            {
                ".gitignore": "node_modules\n",
                "package.json": PACKAGE,
                "src/units.js": "module.exports = {};\n",
            },
        )
    }
    shas["km"] = repo.commit(
        "Convert metres to km",
        {
            "src/units.js": "module.exports = { km: (m) => m / 1000 };\n",
            "__tests__/units.test.js": KM_TEST,
        },
    )
    (repo.root / "node_modules").symlink_to(js_runners, target_is_directory=True)
    return repo_kit.mine(repo, shas, repo.root)


def test_jest_mined_with_its_json_report(mined_jest: Any) -> None:
    assert mined_jest.code == 0, mined_jest.output
    saved = json.loads((mined_jest.repo.root / ".garuda/evals/repo-suite.json").read_text())
    assert [t["commit"] for t in saved["tasks"]] == [mined_jest.shas["km"]]
    task = saved["tasks"][0]
    assert task["checkCommand"] == (
        "node_modules/.bin/jest --ci --json '--outputFile={junit}' __tests__/units.test.js "
        "{canaries}"
    )
    assert task["checkRunner"] == "repo-jest-json"
    assert task["failToPass"] == ["metres to km"]
    assert task["expectedTests"] == ["metres to km"]
    assert "jest.config.js" in task["protected"] and "package.json" in task["protected"]
    assert mined_jest.repo.state() == mined_jest.before


def test_jest_oracle_passes_and_unsolved_fails(mined_jest: Any) -> None:
    suite = load_repo_suite(mined_jest.repo.root)
    task = suite.tasks()[0]
    solved = anyio.run(lambda: self_test(suite, task, solved=True))
    assert solved.passed, (solved.reason, solved.check)
    # The task's test ran twice (again in the canary file, which loads it first): one id,
    # counted once; the canaries are named apart, the must-fail one failed as planted.
    assert solved.check is not None and solved.check.evidence == (
        "1 ran, 0 failed, 0 skipped; canaries (not counted): must-fail failed, must-pass passed"
    )
    assert set(solved.passed_tests) == {"metres to km"}
    assert not anyio.run(lambda: self_test(suite, task, solved=False)).passed
