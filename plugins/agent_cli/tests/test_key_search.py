"""The key search the CLI tests run inside the sandbox does find a key that is there."""

from __future__ import annotations

import shutil
from pathlib import Path

import anyio

from garuda_evals.environment import check_environment
from garuda_evals.executors.base import SandboxPolicy
from garuda_evals.testing import skip_or_fail
from garuda_evals_agent_cli.testing import key_search
from garuda_evals_sandbox_bwrap import BwrapBackend

KEY = "sk-planted-key-0123456789"


def search(workspace: Path, env: dict[str, str]) -> str:
    backend = BwrapBackend()
    if shutil.which("bwrap") is None or not backend.availability().ok:
        skip_or_fail("bwrap", "install bubblewrap (apt-get install bubblewrap)")

    async def run() -> str:
        executor = backend.create(SandboxPolicy(workspace=workspace, env_allow=tuple(env)))
        try:
            result = await executor.run(key_search(KEY), cwd=workspace, env=env, timeout_s=120)
        finally:
            await executor.aclose()
        return result.output

    return anyio.run(run)


def test_the_search_finds_a_key_in_the_environment_and_in_a_file(tmp_path: Path) -> None:
    env = {**check_environment(), "HOME": str(tmp_path)}
    assert "KEYHITS 0 []" in search(tmp_path, env)
    assert "'LEAKED'" in search(tmp_path, {**env, "LEAKED": KEY})
    (tmp_path / "notes.txt").write_text(f"key={KEY}\n")
    assert "notes.txt" in search(tmp_path, env)
