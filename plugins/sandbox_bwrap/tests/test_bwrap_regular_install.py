"""A regular install of garuda in a hidden folder: folder-suite checks work, suite data is hidden.

The regression of issue item 10: the tmpfs over the suite folder (in site-packages) was
covered by the environment's own bind mount, and its read-only remount failed, so every
folder-suite check failed under ``--executor os``.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import anyio
import pytest

from garuda_evals.environment import ENV_ALLOW, check_environment
from garuda_evals.executors.base import CommandResult, SandboxPolicy
from garuda_evals.testing import only_report, skip_or_fail
from garuda_evals_sandbox_bwrap import BwrapBackend
from garuda_evals_sandbox_bwrap.testing import RegularInstall

TASK = "shared-mutable-default"
SOLUTION = "garuda_evals_python/suite_data/python/01-shared-mutable-default/solution"
SOLVED_FILE = "src/invoicing/invoice.py"


@pytest.fixture
def backend() -> BwrapBackend:
    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    made = BwrapBackend()
    if not made.availability().ok:
        skip_or_fail("bwrap", made.availability().reason)
    return made


def garuda(install: RegularInstall, cwd: Path, *args: str) -> tuple[str, dict]:
    """``garuda eval`` of the regular install, from ``cwd``: its output and only result."""
    for old in cwd.glob(".garuda/evals/*"):
        shutil.rmtree(old)
    done = subprocess.run(
        [str(install.venv / "bin" / "garuda"), "eval", "-s", "python", "-t", TASK, *args],
        cwd=cwd,
        env=install.env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    report = only_report(cwd, done.stdout + done.stderr)
    return done.stdout + done.stderr, report["results"][0]


def status(result: dict) -> str:
    """PASS, FAIL or ERR of one result of report.json."""
    return str(result["status"])


@pytest.mark.parametrize("where", ["project", "elsewhere"])
def test_a_folder_suite_check_passes_through_a_regular_install(
    backend: BwrapBackend, regular_install: RegularInstall, where: str
) -> None:
    """From the project holding the environment, and from another (the environment then
    lies only in the hidden /tmp, which failed before)."""
    cwd = getattr(regular_install, where)
    output, report = garuda(regular_install, cwd, "--agent", "oracle", "--executor", "os")
    assert "executor: bwrap" in output
    assert status(report) == "PASS", output


def test_an_agent_command_cannot_copy_the_installed_reference_solution(
    backend: BwrapBackend, regular_install: RegularInstall
) -> None:
    solution = regular_install.site / SOLUTION
    assert (solution / SOLVED_FILE).is_file()
    # Through a variable: the command names no file, so the sandbox is what stops it.
    steal = f'found={solution}; cp -r "$found"/. . ; cat "$found"/{SOLVED_FILE} > stolen.txt'
    for cwd in (regular_install.project, regular_install.elsewhere):
        output, report = garuda(
            regular_install, cwd, "--agent", "command", "--agent-command", steal,
            "--executor", "os",
        )  # fmt: skip
        assert status(report) == "FAIL", output
    # Named as a file, it is refused before any task: it lies inside the hidden suite.
    done = subprocess.run(
        [str(regular_install.venv / "bin" / "garuda"), "eval", "-s", "python", "-t", TASK,
         "--agent", "command", "--agent-command", f"cat {solution}/{SOLVED_FILE}",
         "--executor", "os"],
        cwd=regular_install.elsewhere, env=regular_install.env(), capture_output=True,
        text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"lies inside {solution.parents[1].resolve()}, which the suite hides" in done.stderr


def read_in_sandbox(
    backend: BwrapBackend, install: RegularInstall, work: Path, command: str
) -> CommandResult:
    """Run ``command`` under bwrap with the regular install as the check's Python."""
    env = check_environment(install.env())

    async def go() -> CommandResult:
        executor = backend.create(SandboxPolicy(workspace=work, env_allow=ENV_ALLOW))
        try:
            return await executor.run(command, cwd=work, env=env, timeout_s=60)
        finally:
            await executor.aclose()

    return anyio.run(go)


def test_installed_suite_data_is_hidden_and_the_rest_of_the_environment_is_not(
    backend: BwrapBackend, regular_install: RegularInstall, tmp_path: Path
) -> None:
    solved = regular_install.site / SOLUTION / SOLVED_FILE
    marker = solved.read_text().strip().splitlines()[-1]
    peek = read_in_sandbox(backend, regular_install, tmp_path, f"cat {solved}")
    assert peek.exit_code != 0
    assert marker not in peek.output
    listing = read_in_sandbox(
        backend, regular_install, tmp_path, f"ls -A {regular_install.site}/garuda_evals_python"
    )
    assert listing.exit_code == 0 and listing.output.strip() == ""
    control = read_in_sandbox(
        backend,
        regular_install,
        tmp_path,
        "python3 -c 'import pytest, pydantic, sys; print(sys.prefix, pytest.__version__)'",
    )
    assert control.exit_code == 0, control.output
    assert str(regular_install.venv) in control.output


def test_without_hiding_the_installed_suite_data_is_readable(
    backend: BwrapBackend,
    regular_install: RegularInstall,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The control: with the plugin folders not looked up, the same read gets through."""
    monkeypatch.setattr("garuda_evals_sandbox.view.plugin_folders", lambda prefixes: [])
    solved = regular_install.site / SOLUTION / SOLVED_FILE
    marker = solved.read_text().strip().splitlines()[-1]
    peek = read_in_sandbox(backend, regular_install, tmp_path, f"cat {solved}")
    assert peek.exit_code == 0 and marker in peek.output


def test_sandbox_check_of_a_regular_install_tries_its_own_suite_data(
    backend: BwrapBackend, regular_install: RegularInstall
) -> None:
    done = subprocess.run(
        [str(regular_install.venv / "bin" / "garuda"), "sandbox", "check"],
        cwd=regular_install.elsewhere,
        env=regular_install.env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    row = next(
        line for line in done.stdout.splitlines() if "read an installed suite's data" in line
    )
    assert row.split()[0] == "blocked"
    assert f"{regular_install.site}/garuda_evals_python/suite_data/" in row, row
