"""Under the OS sandbox an agent cannot read the user's project: its history or earlier runs.

A project that nothing shows is absent under the allow-list anyway; what the sandbox must
hide is a project (or a hidden file) inside something it shows, such as a toolchain prefix
on PATH. Each case has a control that reads what is shown, so a sandbox that shows nothing
cannot pass for one that hides.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

from garuda_evals.environment import check_environment
from garuda_evals.executors.base import CommandResult, SandboxPolicy
from garuda_evals.testing import skip_or_fail

REPO = Path(__file__).resolve().parents[1]
MINI = REPO / "core" / "tests" / "suite_data" / "mini"
GARUDA = str(Path(sys.executable).parent / "garuda")
FIX = "sed -i 's/a - b/a + b/' src/calc.py"


def _need_bwrap() -> None:
    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "apt-get install bubblewrap")


@pytest.fixture
def var_tmp() -> Iterator[Path]:
    """A folder under /var/tmp (the sandbox replaces /tmp with its own), removed after."""
    folder = Path("/var/tmp") / f"garuda-hides-{secrets.token_hex(6)}"
    folder.mkdir()
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _eval(command: str, executor: str, cwd: Path, path: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": path}
    agent = ["--agent", "command", "--agent-command", command]
    return subprocess.run(
        [GARUDA, "eval", *agent, "-s", str(MINI), "-t", "add", "--executor", executor],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _steal(project: Path) -> str:
    """Copy the project's secret, then fix the task. The secret is named through its folder:
    a file the command names is shown read-only, so the sandbox must hide it unnamed."""
    return f'd={project}; cat "$d/secret.txt" > stolen.txt && {FIX}'


def test_agent_cannot_read_the_project_under_bwrap_but_can_on_the_host(var_tmp: Path) -> None:
    _need_bwrap()
    project = var_tmp / "project"
    (project / ".git").mkdir(parents=True)
    (project / "secret.txt").write_text("the answer is a + b\n")
    steal = _steal(project)
    runs = {
        executor: _eval(steal, executor, project, os.environ["PATH"]) for executor in ("os", "host")
    }
    assert runs["os"].returncode == 2, runs["os"].stderr
    assert "executor: bwrap" in runs["os"].stderr
    assert "FAIL" in runs["os"].stdout
    assert runs["host"].returncode == 0, runs["host"].stderr


def test_a_project_inside_a_shown_toolchain_prefix_is_emptied(var_tmp: Path) -> None:
    """``tools/bin`` on PATH shows all of ``tools``; the project inside it stays hidden."""
    _need_bwrap()
    tools = var_tmp / "tools"
    (tools / "bin").mkdir(parents=True)
    (tools / "bin" / "garuda-hides-tool").write_text("#!/bin/sh\necho tool-ran\n")
    (tools / "bin" / "garuda-hides-tool").chmod(0o755)
    (tools / "share").mkdir()
    (tools / "share" / "notes.txt").write_text("shown\n")
    project = tools / "project"
    (project / ".git").mkdir(parents=True)
    (project / "secret.txt").write_text("the answer is a + b\n")
    path = f"{tools / 'bin'}:{os.environ['PATH']}"
    shown = f"garuda-hides-tool > ran.txt && cat {tools / 'share' / 'notes.txt'} && {FIX}"
    control = _eval(shown, "os", project, path)
    assert control.returncode == 0, control.stdout + control.stderr  # the prefix is shown
    steal = _steal(project)
    stolen = _eval(steal, "os", project, path)
    assert stolen.returncode == 2, stolen.stdout + stolen.stderr
    assert "executor: bwrap" in stolen.stderr
    assert "FAIL" in stolen.stdout
    listing = _eval(f"ls -A {project} > seen.txt; test ! -s seen.txt && {FIX}", "os", project, path)
    assert listing.returncode == 0, listing.stdout + listing.stderr  # emptied, not only unreadable


def _run_sandboxed(policy: SandboxPolicy, command: str) -> CommandResult:
    from garuda_evals_sandbox_bwrap import BwrapBackend

    backend = BwrapBackend()
    if not backend.availability().ok:
        skip_or_fail("bwrap", backend.availability().reason)

    async def go() -> CommandResult:
        executor = backend.create(policy)
        try:
            return await executor.run(
                command, cwd=policy.workspace, env=check_environment(), timeout_s=60
            )
        finally:
            await executor.aclose()

    return anyio.run(go)


def test_a_hidden_file_inside_a_shown_folder_cannot_be_read(var_tmp: Path) -> None:
    """Hidden single files are replaced by ``/dev/null``, which no command may open there."""
    _need_bwrap()
    venv = var_tmp / "env"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    token = secrets.token_hex(8)
    secret = venv / "answers.txt"
    secret.write_text(f"HIDDEN-{token}\n")
    (venv / "readme.txt").write_text(f"SHOWN-{token}\n")
    work = var_tmp / "work"
    work.mkdir()
    policy = SandboxPolicy(workspace=work, hidden=(secret,), read_only=(venv,))
    result = _run_sandboxed(
        policy,
        f"cat {venv / 'readme.txt'}; cat {secret}; cp {secret} stolen.txt; echo x > {secret}",
    )
    assert f"SHOWN-{token}" in result.output  # the folder around it is shown
    assert f"HIDDEN-{token}" not in result.output, result.output
    assert f"cat: {secret}: Permission denied" in result.output
    assert not (work / "stolen.txt").exists() or token not in (work / "stolen.txt").read_text()
    assert secret.read_text() == f"HIDDEN-{token}\n"
