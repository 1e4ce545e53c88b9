"""The command agent: a missing program stops the run before any task; one that cannot
start is ERR with its output in the reason; its steps are unknown, not 0."""

from __future__ import annotations

import pytest

from garuda_evals.agents.command import CommandAgentFactory, first_program
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
