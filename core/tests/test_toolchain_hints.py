"""What ``--prepare`` and a failing probe tell the user: the end of the output, and a
program that is installed but not on PATH, named with where it is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from garuda_evals.testing import run_garuda
from garuda_evals.toolchains.missing import describe_missing, programs_not_found
from garuda_evals.toolchains.probe import excerpt

PLUGIN = """
from garuda_evals.api import ToolchainRecord, Toolchain, hookimpl


def tool():
    return Toolchain(
        name="tool",
        description="a tool that prepare installs outside PATH",
        hint="run `garuda eval --prepare tool` to install garuda-tool",
        probe_files={"probe.txt": "x"},
        probe_command="garuda-tool",
        prepare_command=PREPARE,
    )


@hookimpl
def garuda_toolchains():
    yield ToolchainRecord(name="tool", description="tool", load=tool)
"""
INSTALL = (
    "mkdir -p $HOME/.local/bin && printf '%s\\n' '#!/bin/sh' 'exit 0' > $HOME/.local/bin/garuda-tool"
    " && chmod +x $HOME/.local/bin/garuda-tool"
)
LONG_FAILURE = "for i in $(seq 1 80); do echo step $i; done; echo 'error: the real cause'; exit 1"


def test_excerpt_keeps_the_first_and_the_last_lines() -> None:
    text = "\n".join(f"line {i}" for i in range(1, 101))
    shown = excerpt(text).splitlines()
    assert shown[:5] == [f"line {i}" for i in range(1, 6)]
    assert shown[5] == "... (70 lines left out)"
    assert shown[-1] == "line 100"
    assert excerpt("a\nb") == "a\nb"


def test_programs_not_found_are_read_from_bash_and_sh_messages() -> None:
    output = "bash: line 1: gotestsum: command not found\nsh: 1: go: not found\nok\n"
    assert programs_not_found(output) == ["gotestsum", "go"]


def test_an_installed_program_off_path_is_named_with_its_folder(tmp_path: Path) -> None:
    gopath = tmp_path / "gopath"
    (gopath / "bin").mkdir(parents=True)
    tool = gopath / "bin" / "gotestsum"
    tool.write_text("#!/bin/sh\n")
    tool.chmod(0o755)
    env = {"HOME": str(tmp_path), "GOPATH": str(gopath), "PATH": "/usr/bin:/bin"}
    said = describe_missing("bash: line 1: gotestsum: command not found", env)
    assert said == (
        f"`gotestsum` is installed at {tool} but {tool.parent} is not on PATH: "
        f'add it (export PATH="{tool.parent}:$PATH").'
    )
    on_path = {**env, "PATH": f"{tool.parent}:/usr/bin"}
    assert "not installed" in describe_missing("gotestsum: command not found", on_path)


@pytest.fixture
def tool_site(fake_dist, tmp_path: Path):
    def make(prepare: str) -> dict[str, str]:
        code = PLUGIN.replace("PREPARE", repr(prepare))
        site = fake_dist(
            "garuda-evals-tool", {"garuda_evals": {"tool": "tool_plugin"}}, {"tool_plugin.py": code}
        )
        home = tmp_path / "home"
        home.mkdir(exist_ok=True)
        return {**os.environ, "PYTHONPATH": str(site), "HOME": str(home)}

    return make


def test_after_a_prepare_that_worked_the_hint_names_what_is_missing(
    tool_site, tmp_path: Path
) -> None:
    env = tool_site(INSTALL)
    done = run_garuda("eval", "--prepare", "tool", cwd=tmp_path, env=env)
    assert done.returncode == 1
    installed = Path(env["HOME"]) / ".local" / "bin"
    assert (
        "tool: prepare step passed, but the offline probe still fails: `garuda-tool` is "
        f"installed at {installed / 'garuda-tool'} but {installed} is not on PATH"
    ) in done.stderr
    assert "--prepare tool" not in done.stderr.split("offline probe still fails:")[1]
    fixed = {**env, "PATH": f"{installed}:{env['PATH']}"}
    assert run_garuda("eval", "--prepare", "tool", cwd=tmp_path, env=fixed).returncode == 0


def test_a_failing_prepare_shows_the_end_of_its_output(tool_site, tmp_path: Path) -> None:
    done = run_garuda("eval", "--prepare", "tool", cwd=tmp_path, env=tool_site(LONG_FAILURE))
    assert done.returncode == 1
    assert "prepare step failed:\nstep 1\n" in done.stderr
    assert "error: the real cause" in done.stderr
    assert "run `garuda eval --prepare tool` to install garuda-tool" in done.stderr
