"""``garuda sandbox check`` against the real bwrap, and against the host as a control."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from garuda_evals.executors.process import reaper_available
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.testing import import_or_skip, skip_or_fail
from garuda_evals_sandbox.command import sandbox
from garuda_evals_sandbox.escapes import CONTROLS, ESCAPES


def need_bwrap() -> None:
    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    from garuda_evals_sandbox_bwrap import BwrapBackend

    state = BwrapBackend().availability()
    if not state.ok:
        skip_or_fail("bwrap", state.reason)


def test_the_command_is_registered_as_garuda_sandbox() -> None:
    commands = PluginRegistry().collect("garuda_commands")
    assert commands["sandbox"].distribution == "garuda-evals-sandbox"
    assert commands["sandbox"].record.load() is sandbox


def test_under_bwrap_every_escape_is_blocked() -> None:
    import_or_skip("garuda_evals_sandbox_bwrap", "bwrap")
    need_bwrap()
    result = CliRunner().invoke(sandbox, ["check"])
    lines = result.output.splitlines()
    assert any(line.split()[:2] == ["bwrap", "os"] and line.endswith(": ok") for line in lines)
    assert any(line.split()[:2] == ["host", "host"] for line in lines)
    assert "escape attempts under bwrap:" in lines
    for attempt in ESCAPES:
        assert any(line.split()[0] == "blocked" and attempt.name in line for line in lines), (
            attempt.name
        )
    for control in CONTROLS:
        assert any(line.split()[0] == "works" and control.name in line for line in lines), (
            control.name
        )
    assert "NOT BLOCKED" not in result.output
    assert result.exit_code == 0, result.output


def test_on_the_host_the_escapes_are_seen_to_get_through() -> None:
    result = CliRunner().invoke(sandbox, ["check", "--backend", "host"])
    assert result.exit_code == 1
    through = {
        line.split(":")[0].replace("NOT BLOCKED", "").strip()
        for line in result.output.splitlines()
        if "NOT BLOCKED" in line
    }
    assert {
        "write outside the folder",
        "write to $HOME",
        "read ~/.ssh",
        "read the user's checkout",
        "read an installed suite's data",
        "read another copy of a suite",
        "write to ~/.m2",
        "TCP to the host's loopback",
        "a host Unix socket",
    } <= through
    reaped = "setsid process outliving the limit"
    if reaper_available():  # the host executor's process reaper ends setsid daemons
        assert any(
            line.split()[:1] == ["blocked"] and reaped in line
            for line in result.output.splitlines()
        )
    else:
        assert reaped in through


def test_under_bwrap_without_hiding_installed_plugins_their_suite_data_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The control of the row: with the plugin folders not looked up, bwrap lets it through."""
    import_or_skip("garuda_evals_sandbox_bwrap", "bwrap")
    need_bwrap()
    monkeypatch.setattr("garuda_evals_sandbox.view.plugin_folders", lambda prefixes: [])
    result = CliRunner().invoke(sandbox, ["check"])
    assert result.exit_code == 1
    assert "NOT BLOCKED  read an installed suite's data" in result.output
    assert "blocked      read another copy of a suite" in result.output


def test_an_unknown_backend_is_refused() -> None:
    result = CliRunner().invoke(sandbox, ["check", "--backend", "nope"])
    assert result.exit_code == 1
    assert "'nope' does not work here" in result.output


def test_without_a_working_os_sandbox_it_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import_or_skip("garuda_evals_sandbox_bwrap", "bwrap")
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap to be found
    result = CliRunner().invoke(sandbox, ["check"])
    assert result.exit_code == 1
    assert "bwrap not found on PATH (apt-get install bubblewrap" in result.output
    assert "no installed OS sandbox works here" in result.output
