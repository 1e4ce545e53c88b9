"""A folder suite's own folder (every reference solution) is hidden from the task's commands."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

from garuda_evals.environment import ENV_ALLOW, check_environment
from garuda_evals.executors.base import CommandResult, SandboxPolicy
from garuda_evals.suites.folder import FolderSuite, load_folder_suite
from garuda_evals.testing import skip_or_fail
from garuda_evals_sandbox_bwrap import BwrapBackend

SUITE = {
    "suite.toml": 'name = "tiny"\n[check]\ncommand = "python3 -m pytest -q"\nrunner = "junit"\n',
    "t1/task.toml": 'title = "add"\nprompt = "make add work"\n',
    "t1/files/calc.py": "def add(a, b):\n    return 0\n",
    "t1/solution/calc.py": "def add(a, b):\n    return a + b  # SOLUTION-MARK\n",
}


@pytest.fixture
def suite() -> Iterator[FolderSuite]:
    # /var/tmp, not /tmp: the sandbox replaces /tmp, which would hide the suite for free.
    root = Path(tempfile.mkdtemp(prefix="garuda-suite-", dir="/var/tmp"))
    for relative, text in SUITE.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    yield load_folder_suite(root)
    shutil.rmtree(root, ignore_errors=True)


def test_an_agent_command_cannot_read_the_reference_solution(
    suite: FolderSuite, tmp_path: Path
) -> None:
    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    backend = BwrapBackend()
    if not backend.availability().ok:
        skip_or_fail("bwrap", backend.availability().reason)
    task = suite.tasks()[0]
    work = tmp_path / "work"
    work.mkdir()
    suite.materialize(task, work)
    policy = suite.policy(task, SandboxPolicy(workspace=work, env_allow=ENV_ALLOW))
    assert suite.root in policy.hidden
    solution = suite.root / "t1" / "solution" / "calc.py"

    async def go() -> tuple[CommandResult, CommandResult]:
        executor = backend.create(policy)
        try:
            env = check_environment()
            peek = await executor.run(f"cat {solution}", cwd=work, env=env, timeout_s=30)
            own = await executor.run("cat calc.py", cwd=work, env=env, timeout_s=30)
            return peek, own
        finally:
            await executor.aclose()

    peek, own = anyio.run(go)
    assert peek.exit_code != 0
    assert "SOLUTION-MARK" not in peek.output
    assert "return 0" in own.output
