"""The command agent's own files: which words of its command name a file it is shown, which
``--agent-mount`` paths are taken, and the comments and heredocs bash would not read as words."""

from __future__ import annotations

from pathlib import Path

import pytest

from garuda_evals.agents.command import CommandAgentFactory
from garuda_evals.agents.command_files import mount_paths, named_files
from garuda_evals.agents.command_words import code_text
from garuda_evals.errors import UsageError
from garuda_evals.testing import run_garuda, run_settings


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home holding ``agents/a.py``, ``in.txt``, ``out.log`` and a folder ``pkg``."""
    home = tmp_path / "home"
    (home / "agents" / "pkg").mkdir(parents=True)
    for name in ("agents/a.py", "in.txt", "out.log"):
        (home / name).write_text("x\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(home)
    return home


@pytest.mark.parametrize(
    ("command", "named"),
    [
        ("python3 ~/agents/a.py", ["agents/a.py"]),
        ('python3 "$HOME/agents/a.py" < ${HOME}/in.txt', ["agents/a.py", "in.txt"]),
        ("ABS agents/a.py", ["agents/a.py"]),
        ("AGENT=~/agents/a.py run --input=~/in.txt", ["agents/a.py", "in.txt"]),
        ("python3 ~/agents/a.py;cat ~/in.txt|wc", ["agents/a.py", "in.txt"]),
        ("python3 ~/agents/a.py > ~/out.log 2>&1", ["agents/a.py"]),
        ("python3 ~/agents/a.py >>~/out.log", ["agents/a.py"]),
        ("python3 agents/a.py in.txt", []),
        ("ls ~/agents/pkg ~/agents/missing.py", []),
        ("# python3 ~/agents/a.py\ntrue", []),
        ("cat > x <<'EOF'\n~/in.txt\nEOF\npython3 ~/agents/a.py", ["agents/a.py"]),
        ("cat /proc/self/environ /dev/null", []),
        ("cat ~/agents/a.py ~/agents/a.py", ["agents/a.py"]),
    ],
)
def test_the_files_a_command_names(home: Path, command: str, named: list[str]) -> None:
    command = command.replace("ABS ", f"python3 {home}/")
    assert named_files(command) == [home / name for name in named]


def test_a_named_link_is_shown_as_the_file_it_leads_to(home: Path, tmp_path: Path) -> None:
    real = tmp_path / "elsewhere" / "agent.py"
    real.parent.mkdir()
    real.write_text("x\n")
    (home / "agents" / "link.py").symlink_to(real)
    (home / "agents" / "environ").symlink_to("/proc/self/environ")
    assert named_files("python3 ~/agents/link.py ~/agents/environ") == [real]


@pytest.mark.parametrize(
    ("command", "text"),
    [
        ("# a\nb # c\nd", "\nb \nd"),
        ("echo a#b $# '#q' \"#d\" \\#e", "echo a#b $# '#q' \"#d\" \\#e"),
        ("x;#c\ny", "x;\ny"),
        ("cat <<-'E'\n\t~/in.txt\n\tE\nafter", "cat <<-'E'\nafter"),
        ('a <<E; b <<"F"\n1\nE\n2\nF\nlast', 'a <<E; b <<"F"\nlast'),
        ("cat <<< '# kept'", "cat <<< '# kept'"),
        ("cat <<E\nnever ends", "cat <<E\n"),
    ],
)
def test_comments_and_heredoc_bodies_are_not_words(command: str, text: str) -> None:
    assert code_text(command) == text


def test_agent_mounts_must_exist_and_keep_the_home_hidden(home: Path, tmp_path: Path) -> None:
    tools = tmp_path / "tools"
    tools.mkdir()
    (home / "tools-link").symlink_to(tools)
    assert mount_paths([str(home / "agents" / "pkg"), "~/tools-link", str(tools)]) == [
        home / "agents" / "pkg",
        tools,
    ]
    with pytest.raises(UsageError, match=r"^--agent-mount ~/nope: not found$"):
        mount_paths(["~/nope"])
    for given in (str(home), str(tmp_path), "/"):
        with pytest.raises(UsageError, match=f"^--agent-mount {given}: "):
            mount_paths([given])
    with pytest.raises(UsageError, match="/proc: cannot be shown in the sandbox"):
        mount_paths(["/proc"])


def test_the_agent_is_shown_its_named_files_and_mounts(home: Path) -> None:
    settings = run_settings(
        agent="command",
        agent_command="python3 ~/agents/a.py",
        agent_mounts=[str(home / "agents" / "pkg"), str(home / "agents" / "a.py")],
    )
    factory = CommandAgentFactory()
    factory.check_settings(settings)
    agent = factory.create(settings)
    assert agent.read_only_paths() == (home / "agents" / "a.py", home / "agents" / "pkg")
    missing = settings.model_copy(update={"agent_mounts": [str(home / "gone")]})
    with pytest.raises(UsageError, match=r"--agent-mount .*/gone: not found"):
        factory.check_settings(missing)


def test_agent_mount_is_the_command_agents_flag(tmp_path: Path, mini_suite: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    tools = tmp_path / "tools"
    tools.mkdir()
    done = run_garuda(
        "eval", "--agent", "oracle", "--agent-mount", "../tools", "-s", str(mini_suite),
        cwd=project,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr == (
        f"garuda: error: --agent-mount {tools}: the oracle agent calls no model and cannot "
        "honour it; --agent-mount is an option of garuda-evals for the command agent: drop it "
        "or use that agent\n"
    )
    done = run_garuda(
        "eval", "--agent", "command", "--agent-command", "true", "--agent-mount", "gone",
        "-s", str(mini_suite), cwd=project,
    )  # fmt: skip
    gone = project / "gone"
    assert (done.returncode, done.stderr) == (
        1,
        f"garuda: error: --agent-mount {gone}: not found\n",
    )
