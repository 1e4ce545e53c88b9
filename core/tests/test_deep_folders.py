"""Folders nested a thousand deep (one line of shell for an agent): every walk and removal
of an agent's folder must take them without ``RecursionError``."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from garuda_evals.judging.change import apply_change
from garuda_evals.removal import remove_tree
from garuda_evals.runner.git_tree import write_tree

LEVELS = 1100


@pytest.fixture
def agent(tmp_path: Path) -> Iterator[Path]:
    """The agent's folder, removed here (pytest's own clean-up uses ``shutil.rmtree``)."""
    yield tmp_path / "agent"
    remove_tree(tmp_path / "agent")


def _deep(root: Path) -> Path:
    folder = root
    folder.mkdir(parents=True, exist_ok=True)
    for _ in range(LEVELS):
        folder = Path(os.path.join(folder, "d"))
        os.mkdir(folder)
    (folder / "x.py").write_text("x\n")
    return folder


def test_a_deep_tree_with_read_only_folders_is_removed(agent: Path) -> None:
    bottom = _deep(agent)
    bottom.chmod(0o500)
    agent.chmod(0o500)
    remove_tree(agent)
    assert not agent.exists()
    remove_tree(agent)  # gone already: nothing to do


def test_the_judge_leaves_out_what_is_nested_too_deep(agent: Path, tmp_path: Path) -> None:
    _deep(agent)
    (agent / "kept.py").write_text("kept\n")
    (agent / ("d/" * 100) / "kept.py").write_text("kept at the limit\n")
    (tmp_path / "judge").mkdir()
    change = apply_change(agent, tmp_path / "judge", [])
    assert change.copied == ["d/" * 100 + "kept.py", "kept.py"]
    assert change.left_out == [f"{'d/' * 101}: deeper than 100 folders"]


def test_a_deep_tree_is_left_to_git(agent: Path, tmp_path: Path) -> None:
    _deep(agent)
    subprocess.run(["git", "init", "-q", "--bare", str(tmp_path / "git")], check=True)
    assert write_tree(tmp_path / "git", agent) is None
