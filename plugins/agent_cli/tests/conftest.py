"""Fixtures: the real CLIs installed once (shared cache folder), the python suite's tasks,
and ``solve``: one of them on that suite's first task against the fake model server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.testing import skip_or_fail
from garuda_evals_agent_cli.install import agents_root
from garuda_evals_agent_cli.testing import (
    CliRun,
    Script,
    Solve,
    installed,
    solve_on_fake_model,
)


@pytest.fixture(scope="session")
def agents_dir() -> Path:
    """The garuda-managed folder every test and CI run shares (installs happen once)."""
    return agents_root()


@pytest.fixture(scope="session")
def claude_code(agents_dir: Path) -> Path:
    """Claude Code, pinned, installed once."""
    return installed("claude-code", agents_dir)


@pytest.fixture(scope="session")
def codex(agents_dir: Path) -> Path:
    """Codex, pinned, installed once."""
    return installed("codex", agents_dir)


@pytest.fixture(scope="session")
def aider(agents_dir: Path) -> Path:
    """aider, pinned, installed once."""
    return installed("aider", agents_dir)


@pytest.fixture(scope="session")
def python_task() -> Any:
    """The python suite's first task."""
    suites = PluginRegistry().collect("garuda_suites")
    if "python" not in suites:
        skip_or_fail("garuda-evals-python", "the python suite is not installed")
    return suites["python"].record.load().tasks()[0]


@pytest.fixture
def solve(tmp_path: Path, agents_dir: Path, python_task: Any) -> Solve:
    """``solve(agent, model, script, **env)``: the CLI (installed on first use) on the python
    suite's first task in the OS sandbox, against a fake model server playing ``script``;
    ``{url}`` in ``env``'s values is the server's URL (see ``solve_on_fake_model``)."""

    def run(agent: str, model: str, script: Script, **env: str) -> CliRun:
        installed(agent, agents_dir)
        return solve_on_fake_model(tmp_path, agents_dir, python_task, agent, model, script, env)

    return run
