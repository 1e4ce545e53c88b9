"""A Go module with a dependency from the Go proxy, its task checked under the OS sandbox.

The sandbox empties the home, where Go keeps its module cache and build cache: the check
names the host's module cache (shown read-only) and starts its build cache as a copy of
garuda's warm base (standard library and dependencies only, read-only in the sandbox).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from garuda_evals.testing import skip_or_fail
from garuda_evals_repo_git.gocache import base_cache

GO_MOD = "module example.com/wrap\n\ngo 1.21\n\nrequire github.com/pkg/errors v0.9.1\n"
OPEN = (
    'package wrap\n\nimport "github.com/pkg/errors"\n\n'
    "func Open(name string) error {{\n\treturn {body}\n}}\n"
)
TEST = (
    'package wrap\n\nimport "testing"\n\nfunc TestOpenNamesTheFile(t *testing.T) {\n'
    '\tif got := Open("a.txt").Error(); got != "a.txt: cannot open" {\n'
    '\t\tt.Fatalf("got %q", got)\n\t}\n}\n'
)


def _garuda(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).parent / "garuda"
    return subprocess.run(
        [str(script), "eval", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=900
    )


def _status(result: subprocess.CompletedProcess[str]) -> tuple[str, str]:
    line = next(x for x in result.stderr.splitlines() if x.startswith("report: "))
    [row] = json.loads(Path(line.removeprefix("report: ")).read_text())["results"]
    return row["status"], row.get("failure") or ""


@pytest.fixture(scope="module")
def wrap(repo_kit: Any) -> Iterator[SimpleNamespace]:
    """The module (outside /tmp and the home), its dependency downloaded, mined once."""
    if not shutil.which("go"):
        skip_or_fail("go", "go runs the Go module's tests")
    with repo_kit.sandbox_folder("garuda-repo-go-") as folder:
        # The test's own module cache, writable so it can be removed after.
        env = {**os.environ, "GOMODCACHE": str(folder / "modcache"), "GOFLAGS": "-modcacherw"}
        repo = repo_kit.GitRepo(folder / "wrap")
        start = {"go.mod": GO_MOD, "wrap.go": OPEN.format(body='errors.New("cannot open")')}
        for name, text in start.items():
            (repo.root / name).write_text(text)
        tidy = subprocess.run(
            ["go", "mod", "tidy"], cwd=repo.root, env=env, capture_output=True, text=True
        )
        if tidy.returncode != 0:
            skip_or_fail("go", f"go mod tidy could not fetch github.com/pkg/errors: {tidy.stderr}")
        repo.commit("Start wrap")
        fixed = OPEN.format(body='errors.Wrap(errors.New("cannot open"), name)')
        sha = repo.commit("Name the file", {"wrap.go": fixed, "wrap_test.go": TEST})
        mined = _garuda(repo.root, env, "--from-git", "--mutants", "0")
        assert mined.returncode == 0, mined.stdout + mined.stderr
        yield SimpleNamespace(repo=repo, sha=sha, env=env, modcache=folder / "modcache")


def test_the_check_names_the_module_cache_and_fetches_nothing(wrap: SimpleNamespace) -> None:
    saved = json.loads((wrap.repo.root / ".garuda/evals/repo-suite.json").read_text())
    [task] = saved["tasks"]
    assert f"GOMODCACHE={wrap.modcache} GOPROXY=off" in task["checkCommand"]
    assert str(base_cache()) in task["checkCommand"]


def test_oracle_passes_and_noop_fails_under_the_os_sandbox(wrap: SimpleNamespace) -> None:
    oracle = _garuda(
        wrap.repo.root, wrap.env, "-s", "repo", "--agent", "oracle", "--executor", "os"
    )
    assert _status(oracle) == ("PASS", ""), oracle.stdout + oracle.stderr
    poison = base_cache() / "poison"
    cheat = f"echo x > {poison}; echo x > {wrap.modcache}/poison; true"
    args = ("-s", "repo", "--agent", "command", "--agent-command", cheat, "--executor", "os")
    noop = _garuda(wrap.repo.root, wrap.env, *args)
    status, failure = _status(noop)
    assert status == "FAIL" and "TestOpenNamesTheFile" in failure, noop.stdout + noop.stderr
    assert not poison.exists() and not (wrap.modcache / "poison").exists(), "read-only caches"


def test_control_without_the_module_cache_the_sandboxed_check_fails(
    wrap: SimpleNamespace,
) -> None:
    """Control: the same check without ``GOMODCACHE`` cannot load the dependency."""
    path = wrap.repo.root / ".garuda/evals/repo-suite.json"
    original = path.read_text()
    try:
        path.write_text(re.sub(r"GOMODCACHE=\S+ GOPROXY=off ", "", original))
        oracle = _garuda(
            wrap.repo.root, wrap.env, "-s", "repo", "--agent", "oracle", "--executor", "os"
        )
        status, failure = _status(oracle)
        assert status == "FAIL" and "module cache" in failure, failure
    finally:
        path.write_text(original)
