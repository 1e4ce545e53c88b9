"""The command agent: runs a shell command the user gives, through the run's executor."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from garuda_evals.agents.base import Agent, AgentFactory, AgentOutcome, AgentTurn
from garuda_evals.agents.command_files import mount_paths, named_files
from garuda_evals.agents.command_start import launch_line, started
from garuda_evals.agents.command_words import shell_words
from garuda_evals.environment import check_environment
from garuda_evals.errors import GarudaError, UsageError
from garuda_evals.models.settings import RunSettings
from garuda_evals.models.usage import Usage
from garuda_evals.removal import remove_tree
from garuda_evals.transcript import Transcript

PROMPT_FILE = ".garuda-prompt.md"
UNREPORTED = "the command agent's usage is not reported"
OUTPUT_TAIL = 4000
OUTPUT_REASON = 500
SHELL_WORDS = frozenset(
    {"cd", "exec", "export", "env", "set", "source", ".", "eval", "if", "for", "while", "{", "("}
)


ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
SHELL_SYNTAX = frozenset("$`()<>;&|{}")


class CommandStartError(RuntimeError):
    """The agent command could not start: an error run (ERR), not the agent's FAIL."""


def first_program(command: str) -> str | None:
    """The program the command starts with (after comments and ``VAR=value`` words), or None
    when the command starts with shell syntax the preflight does not follow (a subshell, a
    group, a substitution, a redirection, a shell keyword)."""
    words = shell_words(command)
    if words is None:
        return None
    for word in words:
        if ASSIGNMENT.match(word):
            if any(mark in word for mark in "$`("):
                return None
            continue
        if word in SHELL_WORDS or any(mark in word for mark in SHELL_SYNTAX):
            return None
        return word
    return None


class CommandAgent(Agent):
    """Runs ``command`` in the workspace with the prompt in a file and in GARUDA_PROMPT.

    The command sees the allow-listed environment plus the variables named with
    ``--agent-env`` (an agent CLI's API key, for example), and in the OS sandbox, read-only,
    the files it names and the ``--agent-mount`` paths (``read_only``, see ``command_files``).
    The prompt file sits in the workspace as ``.garuda-prompt.md`` and is removed when the
    command ends. The command's usage is unreported: tokens unknown, cost incomplete.
    The run is an error (ERR) only when the command could not start (``command_start``);
    once it started, every exit is the agent's and its work is judged.
    """

    def __init__(self, command: str, read_only: tuple[Path, ...] = ()) -> None:
        self.command = command
        self.read_only = read_only

    def read_only_paths(self) -> tuple[Path, ...]:
        """The files the command names and the ``--agent-mount`` paths."""
        return self.read_only

    async def run(self, turn: AgentTurn) -> AgentOutcome:
        """Run the user's command once, with the whole task time limit."""
        turn.progress.steps, turn.progress.usage = None, Usage.unreported(UNREPORTED)
        prompt_file = turn.workspace / PROMPT_FILE
        prompt_file.write_text(turn.prompt, encoding="utf-8")
        passed_through = {n: os.environ[n] for n in turn.settings.agent_env if n in os.environ}
        env = {
            **turn.env,
            **passed_through,
            "GARUDA_PROMPT": turn.prompt,
            "GARUDA_PROMPT_FILE": str(prompt_file),
            "GARUDA_TASK_ID": turn.task.id,
        }
        with Transcript(turn.transcript) as transcript:
            transcript.write("command", {"command": self.command})
            try:
                line = launch_line(self.command, first_program(self.command))
                result = await turn.executor.run(
                    line, cwd=turn.workspace, env=env, timeout_s=turn.timeout_s
                )
            finally:
                _remove_prompt(prompt_file)
            began, output = started(result.output)
            transcript.write(
                "command_result",
                {
                    "exitCode": result.exit_code,
                    "timedOut": result.timed_out,
                    "started": began,
                    "output": output[-OUTPUT_TAIL:],
                },
            )
        if not began and not result.timed_out:
            # nothing of the command ran, so nothing was spent
            turn.progress.steps, turn.progress.usage = 0, Usage.known_zero()
            raise CommandStartError(
                "the agent command could not start: "
                + (
                    output.strip().removeprefix("garuda: ")[-OUTPUT_REASON:]
                    or f"exit {result.exit_code}, no output"
                )
            )
        turn.events("tool", f"agent command exited {result.exit_code}")
        stop = "timeout" if result.timed_out else f"exit {result.exit_code}"
        return AgentOutcome(
            steps=None,
            usage=Usage.unreported(UNREPORTED),
            stop_reason=stop,
        )


class CommandAgentFactory(AgentFactory):
    """Entry point ``command``: needs ``--agent-command``."""

    name = "command"
    description = "runs --agent-command in the workspace (any agent CLI without an adapter)"

    def check_settings(self, settings: RunSettings) -> None:
        """Needs --agent-command (model flags are refused by the rule for every agent); each
        --agent-mount must exist and must not hold the home folder."""
        if not settings.agent_command:
            raise UsageError(
                "--agent command needs --agent-command 'CMD' (the prompt is in $GARUDA_PROMPT)"
            )
        mount_paths(settings.agent_mounts)

    def preflight(self, settings: RunSettings) -> None:
        """The command is one bash can parse, and its program exists (on the checks' PATH,
        or as a path)."""
        command = settings.agent_command or ""
        parsed = subprocess.run(
            ["bash", "-n", "-c", command],
            executable="/bin/bash",
            capture_output=True,
            text=True,
            check=False,
        )
        if parsed.returncode != 0:
            said = parsed.stderr.strip().splitlines()[:1] or ["a syntax error"]
            raise GarudaError(
                f"preflight: --agent-command is not a complete bash command ({said[0]}); "
                "no task was run"
            )
        program = first_program(command)
        if program is None:
            return
        path = check_environment().get("PATH", os.defpath)
        where = os.path.expanduser(program) if program.startswith("~/") else program
        if "/" in where and os.path.isfile(where) and not os.access(where, os.X_OK):
            raise GarudaError(
                f"preflight: --agent-command starts with '{program}', which is not an "
                "executable file (chmod +x it, or put its interpreter first); no task was run"
            )
        if shutil.which(where, path=path) is None and not _builtin(program):
            raise GarudaError(
                f"preflight: --agent-command starts with '{program}', which is not found "
                f"(PATH={path}); no task was run"
            )

    def describe(self, settings: RunSettings) -> dict[str, str]:
        """Record the command."""
        return {"agent": self.name, "command": settings.agent_command or ""}

    def create(self, settings: RunSettings) -> Agent:
        """The command agent, with the files its command names and the --agent-mount paths."""
        assert settings.agent_command
        paths = [*named_files(settings.agent_command), *mount_paths(settings.agent_mounts)]
        return CommandAgent(settings.agent_command, tuple(dict.fromkeys(paths)))


def _remove_prompt(path: Path) -> None:
    """Remove the prompt file, or what the command made of it (a folder, say): never an
    error of the run."""
    try:
        path.unlink(missing_ok=True)
    except IsADirectoryError:
        remove_tree(path)
    except OSError:
        pass


def _builtin(word: str) -> bool:
    """True for a bash builtin or keyword (``true``, ``echo``, ``[[``)."""
    done = subprocess.run(
        ["/bin/bash", "-c", 'type -t -- "$1"', "bash", word],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() in ("builtin", "keyword")
