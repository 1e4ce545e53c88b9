"""Plugin commands load only when used: ``garuda eval`` and ``garuda --help`` import none."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import click
from click.testing import CliRunner

from garuda_evals.api import CommandRecord, hookimpl
from garuda_evals.cli.main import build_cli
from garuda_evals.plugins.manager import PluginRegistry

LOADED: list[str] = []


def _hello() -> click.Command:
    LOADED.append("hello")

    @click.command()
    def hello() -> None:
        """Say hello (the command's own help)."""
        click.echo("hello from the plugin")

    return hello


class Plugin:
    @staticmethod
    @hookimpl
    def garuda_commands() -> Iterator[CommandRecord]:
        yield CommandRecord(name="hello", description="greet from a plugin", load=_hello)


def _cli() -> click.Group:
    registry = PluginRegistry(load_entry_points=False)
    registry.register(Plugin(), name="hello", distribution="test", version="0")
    return build_cli(registry)


def test_help_lists_a_plugin_command_by_its_record_without_loading_it() -> None:
    LOADED.clear()
    done = CliRunner().invoke(_cli(), ["--help"])
    assert done.exit_code == 0, done.output
    assert "hello    greet from a plugin" in done.output
    assert LOADED == []


def test_a_plugin_command_loads_when_it_runs() -> None:
    LOADED.clear()
    done = CliRunner().invoke(_cli(), ["hello"])
    assert (done.exit_code, done.output, LOADED) == (0, "hello from the plugin\n", ["hello"])
    shown = CliRunner().invoke(_cli(), ["hello", "--help"])
    assert "Say hello" in shown.output


def test_building_the_installed_cli_imports_no_plugin_command_module() -> None:
    code = (
        "import sys; from garuda_evals.cli.main import build_cli; build_cli(); "
        "print(sorted(m for m in sys.modules if m.startswith('garuda_evals_') "
        "and m.endswith(('.command', '.escapes', '.lab'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
