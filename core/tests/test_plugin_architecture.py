"""Plugins own their options, one registry serves the process, and no plugin can crash garuda."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from garuda_evals.plugins.manager import PluginRegistry, get_registry

GARUDA = [sys.executable, "-c", "from garuda_evals.cli.main import entry; entry()"]
MINI = Path(__file__).parent / "suite_data" / "mini"

ECHO_PLUGIN = """
from garuda_evals.hookspecs import hookimpl
from garuda_evals.records import Option, OptionsRecord


def model():
    from pydantic import BaseModel, ConfigDict

    class EchoOptions(BaseModel):
        model_config = ConfigDict(extra="forbid")
        echo_word: str | None = None
        echo_times: int = 1

    return EchoOptions


@hookimpl
def garuda_options():
    yield OptionsRecord(
        name="echo",
        description="the echo agent",
        options=(
            Option(("--echo-word",), "the word the agent leaves in the code", agents=("echo",)),
            Option(("--echo-times",), "how often", type=int, default=1, agents=("echo",)),
        ),
        model=model,
    )
"""
ECHO_AGENT = """
from garuda_evals.agents.base import Agent, AgentFactory, AgentOutcome
from garuda_evals.models.usage import Usage

import echo_plugin


class EchoAgent(Agent):
    def __init__(self, word):
        self.word = word

    async def run(self, turn):
        fixed = "def add(a, b):\\n    return a + b  # " + self.word + "\\n"
        (turn.workspace / "src" / "calc.py").write_text(fixed)
        turn.events("tool", "echo " + self.word)
        return AgentOutcome(steps=1, usage=Usage.known_zero(), stop_reason="done")


class EchoFactory(AgentFactory):
    name = "echo"
    description = "fixes add() and leaves a word"

    def create(self, settings):
        options = settings.options_for("echo", echo_plugin.model())
        return EchoAgent((options.echo_word or "none") * options.echo_times)
"""


def garuda(*args: str, cwd: Path, site: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **({"PYTHONPATH": str(site)} if site else {})}
    return subprocess.run(
        [*GARUDA, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / ".git").mkdir(parents=True)
    return folder


@pytest.fixture
def echo_site(fake_dist) -> Path:
    return fake_dist(
        "garuda-evals-echo",
        {
            "garuda_evals": {"echo": "echo_plugin"},
            "garuda_evals.agents": {"echo": "echo_agent:EchoFactory"},
        },
        {"echo_plugin.py": ECHO_PLUGIN, "echo_agent.py": ECHO_AGENT},
    )


def test_a_third_party_plugin_adds_an_option_and_its_agent_reads_it(
    project: Path, echo_site: Path
) -> None:
    args = ("--agent", "echo", "--echo-word", "banana", "--echo-times", "2")
    result = garuda(
        "eval",
        *args,
        "-s",
        str(MINI),
        "-t",
        "add",
        "--executor",
        "host",
        cwd=project,
        site=echo_site,
    )
    assert result.returncode == 0, result.stderr
    assert "echo bananabanana" in result.stderr
    report = json.loads(next(project.glob(".garuda/evals/*/report.json")).read_text())
    assert report["settings"]["options"]["echo"] == {"echo_word": "banana", "echo_times": 2}


def test_eval_help_groups_options_by_the_plugin_that_owns_them(
    project: Path, echo_site: Path
) -> None:
    result = garuda("eval", "--help", cwd=project, site=echo_site)
    assert result.returncode == 0, result.stderr
    section = result.stdout.split("Options of garuda-evals-echo:")[1]
    assert "--echo-word" in section and "--echo-times INTEGER" in section
    assert "--echo-word" not in result.stdout.split("Options of garuda-evals-echo:")[0]


def test_an_option_for_another_agent_is_refused_by_one_rule(project: Path, echo_site: Path) -> None:
    result = garuda(
        "eval",
        "--agent",
        "oracle",
        "--echo-word",
        "x",
        "-s",
        str(MINI),
        cwd=project,
        site=echo_site,
    )
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "garuda: error: --echo-word x: the oracle agent calls no model and cannot honour it; "
        "--echo-word is an option of garuda-evals-echo for the echo agent: drop it or use "
        "that agent"
    )


def test_a_bad_option_value_names_the_flag(project: Path, echo_site: Path) -> None:
    result = garuda(
        "eval",
        "--agent",
        "echo",
        "--echo-times",
        "many",
        "-s",
        str(MINI),
        cwd=project,
        site=echo_site,
    )
    assert result.returncode != 0 and "--echo-times" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_command_agents_flags_are_refused_for_the_oracle(project: Path) -> None:
    result = garuda(
        "eval", "--agent", "oracle", "--agent-command", "x", "-s", str(MINI), cwd=project
    )
    assert result.returncode == 1
    assert result.stderr.startswith(
        "garuda: error: --agent-command x: the oracle agent calls no model and cannot honour it; "
        "--agent-command is an option of garuda-evals for the command agent"
    )


MISSPELLED = """
from garuda_evals.hookspecs import hookimpl


@hookimpl
def garuda_suite():
    return []
"""


def test_a_misspelled_hook_is_an_error_naming_the_plugin_and_the_hook(
    project: Path, fake_dist
) -> None:
    site = fake_dist(
        "garuda-evals-typo",
        {"garuda_evals": {"typo": "typo_plugin"}},
        {"typo_plugin.py": MISSPELLED},
    )
    result = garuda("plugins", cwd=project, site=site)
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "garuda: error: plugin 'typo' from garuda-evals-typo implements 'garuda_suite', "
        "which is not a garuda hook (misspelled?); see docs/hooks.md"
    )


RAISING = """
from garuda_evals.hookspecs import hookimpl


@hookimpl
def garuda_task_finished(result):
    raise RuntimeError("observer down")


@hookimpl
def garuda_suites():
    raise RuntimeError("registration down")
"""


def test_a_raising_observer_and_registration_hook_are_warnings(project: Path, fake_dist) -> None:
    site = fake_dist(
        "garuda-evals-flaky",
        {"garuda_evals": {"flaky": "flaky_plugin"}},
        {"flaky_plugin.py": RAISING},
    )
    listed = garuda("eval", "--list", cwd=project, site=site)
    assert listed.returncode == 0, listed.stderr
    assert "Traceback" not in listed.stderr
    ran = garuda(
        "eval",
        "--agent",
        "oracle",
        "-s",
        str(MINI),
        "--executor",
        "host",
        cwd=project,
        site=site,
    )
    assert ran.returncode == 0, ran.stderr
    warnings = [line for line in ran.stderr.splitlines() if "observer down" in line]
    assert len(warnings) == 2  # one per finished task
    assert warnings[0] == (
        "garuda: warning: plugin 'flaky' from garuda-evals-flaky: garuda_task_finished failed "
        "and is skipped: RuntimeError: observer down"
    )
    assert list(project.glob(".garuda/evals/*/report.json"))


CLASH = """
from garuda_evals.hookspecs import hookimpl
"""


def test_a_third_party_plugin_named_like_a_first_party_one_is_reported(
    project: Path, fake_dist
) -> None:
    site = fake_dist(
        "garuda-evals-impostor", {"garuda_evals": {"python": "impostor"}}, {"impostor.py": CLASH}
    )
    result = garuda("plugins", cwd=project, site=site)
    assert result.returncode == 0
    clash = [line for line in result.stderr.splitlines() if "'python'" in line]
    assert len(clash) == 1
    assert "garuda-evals-impostor" in clash[0] and "garuda-evals-python" in clash[0]
    assert "skipped" in result.stdout


def test_the_registry_is_built_once_per_process(project: Path, monkeypatch) -> None:
    from garuda_evals.cli.main import main

    get_registry.cache_clear()
    before = PluginRegistry.builds
    monkeypatch.chdir(project)
    code = main(["eval", "--agent", "oracle", "-s", str(MINI), "--executor", "host"])
    assert code == 0
    assert PluginRegistry.builds - before == 1


def test_every_option_has_a_help_line() -> None:
    import click

    from garuda_evals.cli.main import build_cli

    cli = build_cli()
    context = click.Context(cli)
    commands = {name: cli.get_command(context, name) for name in cli.list_commands(context)}
    missing = [
        f"{name} {param.opts}"
        for name, command in commands.items()
        if command is not None
        for param in command.params
        if param.param_type_name == "option"
        and not getattr(param, "help", None)
        and "--help" not in param.opts
    ]
    assert missing == []


def test_a_task_file_that_is_not_utf8_is_one_line(project: Path, mini_suite: Path) -> None:
    (mini_suite / "add" / "task.toml").write_bytes(b'title = "\xff"\n')
    result = garuda("eval", "--agent", "oracle", "-s", str(mini_suite), cwd=project)
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"garuda: error: {mini_suite / 'add' / 'task.toml'}: not UTF-8 text (byte 9)"
    )


def test_a_report_that_is_not_utf8_is_one_line(project: Path) -> None:
    bad = project / "report.json"
    bad.write_bytes(b"\xfe\xff")
    result = garuda("compare", str(bad), str(bad), cwd=project)
    assert result.returncode == 1
    assert result.stderr.strip() == f"garuda: error: {bad}: not UTF-8 text (byte 0)"


def test_an_unknown_runner_or_toolchain_names_the_task_file(
    project: Path, mini_suite: Path
) -> None:
    task_file = mini_suite / "add" / "task.toml"
    original = task_file.read_text()
    task_file.write_text(original + '\n[check]\ncommand = "true"\nrunner = "nosuch"\n')
    result = garuda("eval", "--agent", "oracle", "-s", str(mini_suite), cwd=project)
    assert result.returncode == 1
    assert result.stderr.strip().startswith(
        f"garuda: error: {task_file}: field 'check.runner': unknown check runner 'nosuch'"
    )
    task_file.write_text(original + 'requires = ["ghostlang"]\n')
    result = garuda("eval", "--agent", "oracle", "-s", str(mini_suite), cwd=project)
    assert result.stderr.strip() == (
        f"garuda: error: {task_file}: field 'requires': no installed plugin provides the "
        "toolchain 'ghostlang'"
    )


def test_executor_os_on_linux_without_bwrap_names_the_package_to_install(monkeypatch) -> None:
    """With only the macOS sandbox installed, the error names Linux's, not Seatbelt's need."""
    from garuda_evals.errors import UsageError
    from garuda_evals.runner import executor_choice

    installed = {
        name: dist
        for name, dist in executor_choice.driver_names("garuda_evals.executors").items()
        if name != "bwrap"
    }
    monkeypatch.setattr(executor_choice, "driver_names", lambda namespace: installed)
    monkeypatch.setattr(executor_choice.sys, "platform", "linux")
    with pytest.raises(UsageError, match="install garuda-evals-sandbox-bwrap"):
        executor_choice.choose_executor("os", get_registry())
