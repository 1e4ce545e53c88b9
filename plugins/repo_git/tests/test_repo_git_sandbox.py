"""Under the OS sandbox the checkout is hidden but its node_modules stays readable."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from garuda_evals.testing import skip_or_fail

PAD_TEST = (
    "const test = require('node:test');\nconst assert = require('node:assert');\n"
    "const { pad } = require('../src/pad.js');\n\n"
    "test('pad', () => assert.strictEqual(pad('7'), '007'));\n"
)


def _garuda(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).parent / "garuda"
    return subprocess.run(
        [str(script), "eval", *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )


def _statuses(result: subprocess.CompletedProcess[str]) -> list[str]:
    line = next(x for x in result.stderr.splitlines() if x.startswith("report: "))
    report = json.loads(Path(line.removeprefix("report: ")).read_text())
    return [r["status"] for r in report["results"]]


@pytest.fixture
def outside_tmp(repo_kit: Any) -> Iterator[Path]:
    """A folder outside /tmp and the home, which the sandbox does not hide by itself."""
    with repo_kit.sandbox_folder("garuda-repo-test-") as folder:
        yield folder


def test_checkout_hidden_dependencies_readable(outside_tmp: Path, repo_kit: Any) -> None:
    if not shutil.which("node"):
        skip_or_fail("node", "the sandbox test mines a node --test project")
    repo = repo_kit.GitRepo(outside_tmp / "padjs")
    repo.commit(
        "Start",
        {
            ".gitignore": "node_modules\n",
            "package.json": '{"name": "padjs", "scripts": {"test": "node --test"}}\n',
            "src/pad.js": "module.exports = {};\n",
        },
    )
    leftpad = repo.root / "node_modules" / "leftpad"
    leftpad.mkdir(parents=True)
    (leftpad / "index.js").write_text("module.exports = (s, n) => String(s).padStart(n, '0');\n")
    repo.commit(
        "Pad numbers",
        {
            "src/pad.js": "const leftpad = require('leftpad');\n"
            "module.exports = { pad: (s) => leftpad(s, 3) };\n",
            "test/pad.test.js": PAD_TEST,
        },
    )
    assert _garuda(repo.root, "--from-git").returncode == 0

    oracle = _garuda(repo.root, "-s", "repo", "--agent", "oracle", "--executor", "os")
    assert oracle.returncode == 0, oracle.stdout + oracle.stderr
    assert _statuses(oracle) == ["PASS"]

    # Through a variable: the command names no file, so the sandbox is what hides it.
    cheat = f'root={repo.root}; cp "$root/src/pad.js" src/pad.js'
    args = ("-s", "repo", "--agent", "command", "--agent-command", cheat)
    on_host = _garuda(repo.root, *args, "--executor", "host")
    assert _statuses(on_host) == ["PASS"], "on the host the checkout is readable"
    sandboxed = _garuda(repo.root, *args, "--executor", "os")
    assert _statuses(sandboxed) == ["FAIL"], sandboxed.stdout + sandboxed.stderr
    named = f"cp {repo.root}/src/pad.js src/pad.js"
    refused = _garuda(
        repo.root, "-s", "repo", "--agent", "command", "--agent-command", named,
        "--executor", "os",
    )  # fmt: skip
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert f"lies inside {repo.root.resolve()}, which the suite hides" in refused.stderr
