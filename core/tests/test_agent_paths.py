"""An agent's read-only paths never show what the sandbox hides: a suite's folder, the
project's git folder, the saved runs, or the project as a whole."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from garuda_evals.errors import GarudaError
from garuda_evals.runner.agent_paths import check_agent_paths, exposure, suite_hidden
from garuda_evals.runner.selection import Selected
from garuda_evals.suites.folder import load_folder_suite


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """``project/`` (a git root holding ``.garuda`` and ``tools/``), ``suite/``, ``agents/``."""
    for folder in ("project/.git/hooks", "project/.garuda/evals", "project/tools", "agents"):
        (tmp_path / folder).mkdir(parents=True)
    return tmp_path


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("suite", "lies inside {t}/suite, which the suite hides from the agent (its solutions)"),
        ("suite/t1/solution/x.py", "lies inside {t}/suite, which the suite hides"),
        (".", "holds {t}/suite, which the suite hides from the agent (its solutions)"),
        ("project", "holds the project {t}/project, whose history the agent must not read"),
        ("project/.git/hooks", "lies inside {t}/project/.git, the project's history, which"),
        ("project/.garuda", "lies inside {t}/project/.garuda, the project's history, which"),
        ("project/.garuda/evals/r1/t.jsonl", "lies inside {t}/project/.garuda, the project's"),
        ("agents/sol-link", "lies inside {t}/suite, which the suite hides"),
        ("project/tools", None),
        ("project/tools/helper.py", None),
        ("agents", None),
        ("suite-beside", None),
        ("project/.gitignore", None),
    ],
)
def test_what_a_read_only_path_would_show(tree: Path, path: str, why: str | None) -> None:
    (tree / "suite" / "t1" / "solution").mkdir(parents=True)
    (tree / "agents" / "sol-link").symlink_to(tree / "suite" / "t1" / "solution")
    found = exposure(tree / path, [tree / "suite"], [tree / "project"])
    if why is None:
        assert found is None
    else:
        assert found is not None and found.startswith(why.format(t=tree)), found


def test_a_git_folder_elsewhere_is_followed(tree: Path) -> None:
    """``.git`` as a link to the real git folder: that folder stays hidden too."""
    real = tree / "git-store"
    (tree / "project" / ".git").rename(real)
    (tree / "project" / ".git").symlink_to(real)
    assert exposure(real / "hooks", [], [tree / "project"]) == (
        f"lies inside {real}, the project's history, which the agent must not read"
    )
    assert exposure(tree, [], [tree / "project"]) is not None


def test_a_worktrees_git_folders_are_followed(tree: Path) -> None:
    """``.git`` as a file (a worktree): the folder it names and the shared one stay hidden."""
    store = tree / "main" / ".git"
    (store / "worktrees" / "p").mkdir(parents=True)
    (store / "objects").mkdir()
    (store / "worktrees" / "p" / "commondir").write_text("../..\n")
    shutil.rmtree(tree / "project" / ".git")
    (tree / "project" / ".git").write_text(f"gitdir: {store / 'worktrees' / 'p'}\n")
    assert exposure(store / "objects", [], [tree / "project"]) == (
        f"lies inside {store}, the project's history, which the agent must not read"
    )
    assert exposure(store / "worktrees", [], [tree / "project"]) is not None
    assert exposure(tree / "main" / "src", [], [tree / "project"]) is None
    (tree / "project" / ".git").write_text("gitdir: ../nowhere\n")
    assert exposure(tree / "nowhere" / "x", [], [tree / "project"]) is not None
    assert exposure(tree / "main", [], [tree / "project"]) is None


def test_the_preflight_names_the_path_and_stops_the_run(tree: Path, mini_suite: Path) -> None:
    suite = load_folder_suite(mini_suite)
    selected = [Selected(suite=suite, task=task) for task in suite.tasks()]
    assert suite_hidden(suite, selected[0].task) == (mini_suite,)
    solution = mini_suite / "add" / "solution" / "src" / "calc.py"
    check_agent_paths([tree / "agents"], selected, tree / "project")
    check_agent_paths([], selected, tree / "project")
    with pytest.raises(GarudaError) as raised:
        check_agent_paths([tree / "agents", solution], selected, tree / "project")
    assert str(raised.value) == (
        f"preflight: the agent's path {solution} (named in --agent-command or --agent-mount) "
        f"lies inside {mini_suite}, which the suite hides from the agent (its solutions): keep "
        "the agent's files apart from it; no task was run"
    )
    with pytest.raises(GarudaError, match="holds the project"):
        check_agent_paths([tree], [], tree / "project" / "tools")
