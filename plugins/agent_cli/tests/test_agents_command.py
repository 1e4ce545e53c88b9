"""``garuda agents``: every adapter with its pinned version and state; install refuses unknowns."""

from __future__ import annotations

from pathlib import Path

import pytest

from garuda_evals.testing import run_garuda
from garuda_evals_agent_cli.testing import eval_env


@pytest.mark.parametrize("command", [["agents", "list"], ["agents"]])
def test_agents_lists_each_cli_with_its_pin_and_whether_it_works(
    tmp_path: Path, agents_dir: Path, claude_code: Path, command: list[str]
) -> None:
    done = run_garuda(*command, cwd=tmp_path, env=eval_env(agents_dir))
    assert done.returncode == 0, done.stderr
    lines = {line.split()[0]: line for line in done.stdout.splitlines()[1:]}
    assert set(lines) == {"claude-code", "codex", "gemini-cli", "opencode", "aider"}
    assert "@anthropic-ai/claude-code@2.1.332  works: 2.1.332" in lines["claude-code"]


def test_an_empty_agents_folder_says_how_to_install(tmp_path: Path, agents_dir: Path) -> None:
    env = eval_env(agents_dir, GARUDA_AGENTS_DIR=str(tmp_path / "none"))
    done = run_garuda("agents", cwd=tmp_path, env=env)
    assert "not installed (garuda agents install codex)" in done.stdout


def test_install_of_an_unknown_cli_is_one_line_with_the_choices_exit_1(
    tmp_path: Path, agents_dir: Path
) -> None:
    """An unknown name is a could-not-start user error (exit 1), as an unknown suite is."""
    done = run_garuda("agents", "install", "cursor", cwd=tmp_path, env=eval_env(agents_dir))
    assert done.returncode == 1
    assert done.stderr == (
        "garuda: error: garuda agents install cursor: unknown agent CLI; "
        "choose one of: aider, claude-code, codex, gemini-cli, opencode\n"
    )
    assert done.stdout == ""
