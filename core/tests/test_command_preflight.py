"""The command agent: a missing program stops the run before any task; one that cannot
start inside the executor never runs (ERR, one line naming the flag); once started, every
exit is the command's; its steps are unknown, not 0."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from garuda_evals.agents.command import CommandAgentFactory, first_program
from garuda_evals.agents.command_start import launch_line, started
from garuda_evals.errors import GarudaError
from garuda_evals.testing import run_settings as make_settings


def test_first_program_skips_assignments_and_gives_up_on_shell_syntax() -> None:
    assert first_program("FOO=1 BAR=2 my-agent --flag") == "my-agent"
    assert first_program("/opt/bin/agent run") == "/opt/bin/agent"
    assert first_program("cd sub && agent") is None
    assert first_program("$AGENT run") is None


@pytest.mark.parametrize(
    "command",
    [
        "found=$(find / -name x) ; cp $found .",
        "X=`pwd` agent",
        "(cd sub && agent)",
        "{ agent; }",
        'root="$(dirname "$(readlink .venv)")"; git -C "$root" show HEAD:x > x',
        "<input agent",
        "agent>log",
    ],
)
def test_first_program_gives_up_on_substitutions_subshells_and_redirections(
    command: str,
) -> None:
    assert first_program(command) is None


def test_preflight_names_a_missing_program() -> None:
    settings = make_settings(agent="command", agent_command="no-such-agent-cli -p hi")
    with pytest.raises(GarudaError, match="'no-such-agent-cli', which is not found"):
        CommandAgentFactory().preflight(settings)
    CommandAgentFactory().preflight(make_settings(agent="command", agent_command="true"))
    CommandAgentFactory().preflight(make_settings(agent="command", agent_command="sed -n 1p"))


def test_preflight_names_a_line_bash_cannot_parse() -> None:
    settings = make_settings(agent="command", agent_command='my-agent -p "$GARUDA_PROMPT')
    said = "bash: -c: line 1: unexpected EOF while looking for matching `\"'"
    with pytest.raises(GarudaError) as raised:
        CommandAgentFactory().preflight(settings)
    assert str(raised.value) == (
        f"preflight: --agent-command is not a complete bash command ({said}); no task was run"
    )


def _launch(command: str, cwd: Path) -> tuple[int, bool, str]:
    """Run the command agent's launch line through bash: exit, started, output."""
    line = launch_line(command, first_program(command))
    done = subprocess.run(["bash", "-c", line], cwd=cwd, capture_output=True, text=True)
    began, output = started(done.stdout + done.stderr)
    return done.returncode, began, output


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("no-such-agent-cli -p hi", "'no-such-agent-cli', which is not found here (PATH="),
        ("./plain.txt run", "'./plain.txt', and ./plain.txt is not an executable file"),
        ("./folder", "'./folder', and ./folder is not an executable file"),
        ("./lost-interpreter", "'./lost-interpreter', whose interpreter /no/such/sh is not"),
        ("X=1 ./lost-env", "'./lost-env', whose interpreter 'no-such-node' is not found"),
    ],
)
def test_a_command_that_cannot_start_never_runs(tmp_path: Path, command: str, reason: str) -> None:
    (tmp_path / "plain.txt").write_text("touch ran\n")
    (tmp_path / "folder").mkdir()
    for name, first in [
        ("lost-interpreter", "#!/no/such/sh"),
        ("lost-env", "#!/usr/bin/env -S no-such-node --x"),
    ]:
        (tmp_path / name).write_text(f"{first}\ntouch ran\n")
        (tmp_path / name).chmod(0o755)
    code, began, output = _launch(command + "\ntouch ran", tmp_path)
    assert (code, began) == (127, False), output
    assert output.startswith("garuda: --agent-command starts with " + reason), output
    assert output.count("\n") == 1, "one line"
    assert not (tmp_path / "ran").exists()


@pytest.mark.parametrize(
    "command",
    [
        "exit 127",
        "true; exit 126",
        "if true; then exit 127; fi",
        "cd . && no-such-program",
        "sh -c 'exit 127'",
        "./agent",
    ],
)
def test_once_started_every_exit_is_the_commands(tmp_path: Path, command: str) -> None:
    (tmp_path / "agent").write_text("#!/usr/bin/env sh\nexit 127\n")
    (tmp_path / "agent").chmod(0o755)
    code, began, output = _launch(command, tmp_path)
    assert (code, began) == (127 if "126" not in command else 126, True), output
    assert "garuda" not in output


def test_the_start_check_leaves_nothing_behind_for_the_command(tmp_path: Path) -> None:
    code, began, output = _launch(
        'echo "$0" $#; declare -F __garuda_start || echo no-function; echo "${found-unset}"',
        tmp_path,
    )
    assert (code, began, output) == (0, True, "bash 0\nno-function\nunset\n")


@pytest.mark.parametrize(
    ("command", "program"),
    [
        ("# my agent\npython3 agent.py", "python3"),
        ("  # one\n\n# two: don't stop here\nFOO=1 my-agent -p x", "my-agent"),
        ("my-agent  # a comment after it", "my-agent"),
        ("'#not-a-comment' x", "#not-a-comment"),
        ("cat <<'EOF'\n# a heredoc's line\nEOF\nagent", "cat"),
    ],
)
def test_first_program_reads_comments_as_bash_does(command: str, program: str) -> None:
    assert first_program(command) == program


def test_preflight_takes_a_command_whose_first_line_is_a_comment() -> None:
    command = "# my agent\nsed -n 1p"
    done = subprocess.run(["bash", "-c", command], input="x\n", capture_output=True, text=True)
    assert done.returncode == 0, "bash runs it"
    CommandAgentFactory().preflight(make_settings(agent="command", agent_command=command))
    with pytest.raises(GarudaError, match="starts with 'no-such-agent-cli', which is not found"):
        CommandAgentFactory().preflight(
            make_settings(agent="command", agent_command="# my agent\nno-such-agent-cli")
        )


def test_preflight_follows_the_home_and_names_a_file_it_cannot_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "run.sh").write_text("#!/bin/sh\ntouch ran\n")
    settings = make_settings(agent="command", agent_command="~/run.sh --fix")
    with pytest.raises(GarudaError) as raised:
        CommandAgentFactory().preflight(settings)
    assert str(raised.value) == (
        "preflight: --agent-command starts with '~/run.sh', which is not an executable file "
        "(chmod +x it, or put its interpreter first); no task was run"
    )
    (tmp_path / "run.sh").chmod(0o755)
    CommandAgentFactory().preflight(settings)
    work = tmp_path / "work"
    work.mkdir()
    code, began, output = _launch("~/run.sh --fix", work)
    assert (code, began, output) == (0, True, "")
    assert (work / "ran").is_file()
