"""Normal checks still pass under bwrap: pytest with the venv's python, node --test, suites."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import anyio
import pytest

from garuda_evals.checks.junit import JUnitCheckRunner
from garuda_evals.environment import ENV_ALLOW
from garuda_evals.executors.base import (
    SandboxPolicy,
)
from garuda_evals.models.task import CheckSpec, Task
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.records import ToolchainRecord
from garuda_evals.runner.check import Verdict
from garuda_evals.suites.base import write_files
from garuda_evals.testing import (
    check_in_place,
    required_tools,
    self_test,
    skip_or_fail,
    skip_unless_required,
)
from garuda_evals.toolchains.probe import probe_toolchain
from garuda_evals_sandbox_bwrap import BwrapBackend

PYTEST_FILES = {
    "calc.py": "def add(a, b):\n    return a + b\n",
    "tests/test_calc.py": (
        "import socket\n\nfrom calc import add\n\n\n"
        "def test_add():\n    assert add(2, 3) == 5\n\n\n"
        "def test_own_loopback_server():\n"
        "    server = socket.socket()\n    server.bind(('127.0.0.1', 0))\n    server.listen()\n"
        "    client = socket.create_connection(server.getsockname())\n"
        "    conn, _ = server.accept()\n    client.sendall(b'hi')\n"
        "    assert conn.recv(2) == b'hi'\n"
    ),
}
NODE_FILES = {
    "sum.mjs": "export const sum = (a, b) => a + b;\n",
    "test/sum.test.mjs": (
        "import test from 'node:test';\nimport assert from 'node:assert/strict';\n"
        "import { sum } from '../sum.mjs';\n\n"
        "test('sum', () => { assert.equal(sum(2, 3), 5); });\n"
    ),
}


@pytest.fixture
def backend() -> BwrapBackend:
    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    made = BwrapBackend()
    if not made.availability().ok:
        skip_or_fail("bwrap", made.availability().reason)
    return made


@pytest.fixture
def workspace() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="garuda-bwrap-check-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def check(backend: BwrapBackend, workspace: Path, files: dict[str, str], command: str) -> Verdict:
    task = Task(
        id="t", title="t", prompt="p", files=files, check=CheckSpec(command=command, runner="junit")
    )
    write_files(workspace, files)

    async def go() -> Verdict:
        executor = backend.create(SandboxPolicy(workspace=workspace, env_allow=ENV_ALLOW))
        try:
            return await check_in_place(
                task, workspace, runner=JUnitCheckRunner("junit"), executor=executor
            )
        finally:
            await executor.aclose()

    return anyio.run(go)


def test_a_pytest_check_passes_under_bwrap(backend: BwrapBackend, workspace: Path) -> None:
    command = "python3 -m pytest -q -p no:cacheprovider --junitxml={junit} tests"
    verdict = check(backend, workspace, PYTEST_FILES, command)
    assert verdict.passed, (verdict.reason, verdict.check)
    assert verdict.check is not None and verdict.check.tests_ran == 2


def test_a_failing_pytest_check_still_fails_under_bwrap(
    backend: BwrapBackend, workspace: Path
) -> None:
    files = {**PYTEST_FILES, "calc.py": "def add(a, b):\n    return a - b\n"}
    command = "python3 -m pytest -q -p no:cacheprovider --junitxml={junit} tests"
    verdict = check(backend, workspace, files, command)
    assert not verdict.passed
    assert verdict.check is not None and verdict.check.tests_failed == 1


def test_node_test_passes_under_bwrap(backend: BwrapBackend, workspace: Path) -> None:
    if shutil.which("node") is None:
        skip_or_fail("node", "install Node.js 20 or newer")
    command = "node --test --test-reporter=junit --test-reporter-destination={junit} test/"
    verdict = check(backend, workspace, NODE_FILES, command)
    assert verdict.passed, (verdict.reason, verdict.check)
    assert verdict.check is not None and verdict.check.tests_ran == 1


def test_every_installed_suite_passes_its_first_task_under_bwrap(backend: BwrapBackend) -> None:
    registry = PluginRegistry()
    suites = registry.collect("garuda_suites")
    toolchains = registry.collect("garuda_toolchains")
    if not suites:
        skip_unless_required("suites", "no suite is installed in this environment")
    checked, dropped = [], []
    for name, registered in sorted(suites.items()):
        record = registered.record
        if not record.in_all:
            continue  # built from a user's history (the repo suite tests itself under bwrap)
        missing = [
            need
            for need in record.requires
            if need not in toolchains or not _toolchain_ready(toolchains[need].record)
        ]
        if missing:
            dropped.append(f"{name} (toolchain not ready: {', '.join(missing)})")
            continue
        suite = record.load()
        task = suite.tasks()[0]
        if task.solution is None:
            continue
        verdict = anyio.run(partial(self_test, suite, task, solved=True, backend=backend))
        assert verdict.passed, (name, task.id, verdict.reason, verdict.check)
        checked.append(name)
    if dropped and required_tools():
        pytest.fail(f"suites left out under GARUDA_REQUIRE_TOOLS: {'; '.join(dropped)}")
    if not checked:
        skip_unless_required("suites", "no installed suite has its toolchains here")


def _toolchain_ready(record: ToolchainRecord) -> bool:
    """Whether the toolchain's own probe passes on the host (else its suite is left out)."""
    return anyio.run(probe_toolchain, record.load()).ok
