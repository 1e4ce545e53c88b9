"""Helpers for the self-tests of suites and plugins (used by tests, not by runs)."""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

import anyio

from garuda_evals.agents.oracle import apply_solution
from garuda_evals.checks.base import CheckRunner
from garuda_evals.environment import ENV_ALLOW, check_environment
from garuda_evals.executors.base import Executor, ExecutorBackend, SandboxPolicy
from garuda_evals.executors.host import HostBackend, HostExecutor
from garuda_evals.models.settings import RunSettings
from garuda_evals.models.task import Task
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.runner.check import Judge, Verdict, judge_in_copy
from garuda_evals.suites.base import Suite

if TYPE_CHECKING:
    from garuda_evals.suites.soundness import SuiteSoundness

K = TypeVar("K")
REQUIRE_VAR = "GARUDA_REQUIRE_TOOLS"
GARUDA_SCRIPT = Path(sys.executable).parent / "garuda"
STATUSES = ("PASS", "PASS?", "FAIL", "ERR", "INT")


def run_garuda(
    *args: str, cwd: Path, env: Mapping[str, str] | None = None, timeout: float = 900
) -> subprocess.CompletedProcess[str]:
    """Run the installed ``garuda`` script as a user would; ``env`` replaces the environment."""
    return subprocess.run(
        [str(GARUDA_SCRIPT), *args],
        cwd=cwd,
        env=dict(os.environ if env is None else env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def only_report(cwd: Path, context: str = "") -> dict[str, Any]:
    """The one report.json a run wrote under ``cwd``; fails when there is none or several."""
    reports = sorted(cwd.glob(".garuda/evals/*/report.json"))
    assert len(reports) == 1, context or f"{len(reports)} reports under {cwd}"
    report: dict[str, Any] = json.loads(reports[0].read_text(encoding="utf-8"))
    return report


def result_rows(stdout: str, suite: str | None = None) -> dict[str, str]:
    """The table's rows as ``suite/task -> PASS|FAIL|ERR`` (``task ->`` with ``suite``)."""
    rows: dict[str, str] = {}
    for line in stdout.splitlines():
        cells = line.split()
        if len(cells) < 2 or cells[1] not in STATUSES or "/" not in cells[0]:
            continue
        if suite is None:
            rows[cells[0]] = cells[1]
        elif cells[0].startswith(f"{suite}/"):
            rows[cells[0].removeprefix(f"{suite}/")] = cells[1]
    return rows


def sleep_marker(seconds: int) -> str:
    """A ``sleep`` duration of ``seconds`` and a random fraction, to find by its command line
    (``^sleep MARKER$``): no other run on the machine, not even of the same test, uses it."""
    return f"{seconds}.{secrets.randbelow(10**9):09d}"


def processes_matching(pattern: str) -> list[int]:
    """Pids of live processes whose command line matches ``pattern`` (``pgrep -f``)."""
    found = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True, check=False)
    return [int(pid) for pid in found.stdout.split()]


def wait_for_processes(
    pattern: str,
    *,
    count: int = 1,
    limit_s: float = 120,
    started: subprocess.Popen[Any] | None = None,
) -> list[int]:
    """Pids of processes matching ``pattern`` (``pgrep -f``), once there are ``count``.

    The test fails after ``limit_s``; ``started``, the process expected to start them, is
    killed first (also when the wait is interrupted) and its stderr ends the message.
    """
    import pytest

    deadline = time.monotonic() + limit_s
    try:
        while time.monotonic() < deadline:
            pids = processes_matching(pattern)
            if len(pids) >= count:
                return pids
            time.sleep(0.05)
    except BaseException:
        if started is not None:
            started.kill()
            started.communicate()
        raise
    message = f"no {count} process(es) matched {pattern!r} within {limit_s:.0f} s"
    if started is not None:
        started.kill()
        stderr = started.communicate()[1] or ""
        text = stderr.decode(errors="replace") if isinstance(stderr, bytes) else stderr
        message += f"; stderr of the process that should start them:\n{text[-2000:]}"
    pytest.fail(message)


def required_tools() -> set[str]:
    """Tools that CI marks required (``GARUDA_REQUIRE_TOOLS=bwrap,maven,node``)."""
    return {t.strip() for t in os.environ.get(REQUIRE_VAR, "").split(",") if t.strip()}


def skip_or_fail(tool: str, reason: str) -> None:
    """Skip the test when ``tool`` is missing here; fail it when CI requires the tool."""
    import pytest

    if tool in required_tools() or "all" in required_tools():
        pytest.fail(f"{tool} is required here ({REQUIRE_VAR}) but missing: {reason}")
    pytest.skip(f"{tool} missing: {reason}")


def skip_unless_required(tool: str, reason: str) -> None:
    """Skip for a condition of this machine (an older ``tool``, another architecture); under
    ``GARUDA_REQUIRE_TOOLS`` (CI) the test fails instead, so nothing is silently left out."""
    import pytest

    if required_tools():
        pytest.fail(f"{tool}: {reason}, and {REQUIRE_VAR} is set (tests may not skip here)")
    pytest.skip(reason)


def import_or_skip(module: str, tool: str) -> ModuleType:
    """``pytest.importorskip`` that fails under ``GARUDA_REQUIRE_TOOLS`` (CI) instead."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        skip_or_fail(tool, f"cannot import {module}: {error}")
        raise


def check_runner_for(task: Task, registry: PluginRegistry | None = None) -> CheckRunner:
    """The check runner a task names, loaded from the installed plugins."""
    from garuda_evals.plugins.manager import get_registry

    registry = registry or get_registry()
    runner: CheckRunner = registry.check_runners()[task.check.runner].record.load()
    return runner


async def self_test(
    suite: Suite,
    task: Task,
    *,
    solved: bool,
    edit: Callable[[Path], None] | None = None,
    backend: ExecutorBackend | None = None,
    timeout_s: float | None = None,
    hidden: tuple[Path, ...] = (),
) -> Verdict:
    """Materialize ``task``, apply its solution when ``solved``, then ``edit``, then judge.

    ``edit`` lets a test play a cheat (edit a test, add a conftest.py) on the agent's
    folder; the judge then works as in a run, in a fresh copy (host executor by default).
    ``hidden`` folders are hidden from the check as a run hides the user's project.
    """
    workspace = Path(tempfile.mkdtemp(prefix=f"garuda-selftest-{task.id}-"))
    try:
        suite.materialize(task, workspace)
        if solved:
            assert task.solution is not None, f"{task.id} has no reference solution"
            apply_solution(workspace, task.solution)
        if edit is not None:
            edit(workspace)
        judge = Judge(
            suite=suite,
            backend=backend or HostBackend(),
            base_policy=lambda folder: SandboxPolicy(
                workspace=folder, hidden=hidden, env_allow=ENV_ALLOW
            ),
            runner=check_runner_for(task),
            env=check_environment(),
            timeout_s=timeout_s,
        )
        return await judge_in_copy(task, workspace, judge)
    finally:
        suite.release(task, workspace)
        shutil.rmtree(workspace, ignore_errors=True)


@dataclass(frozen=True)
class Played:
    """One task run through the real CLI: its row of report.json, and what garuda printed."""

    status: str
    failure: str | None
    suspicious: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    row: dict[str, Any] = field(default_factory=dict)
    stdout: str = ""
    stderr: str = ""


def play(
    suite: str,
    task: str,
    agent_command: str | None,
    *,
    cwd: Path,
    executor: str = "os",
    timeout: float = 600,
    extra: tuple[str, ...] = (),
) -> Played:
    """Run one task with ``--agent command`` (or the oracle when ``agent_command`` is None).

    The agent command runs as a real agent's would: in the task's folder, under
    ``--executor`` (the OS sandbox by default). Each call writes a fresh run under ``cwd``.
    """
    agent = (
        ["--agent", "oracle"]
        if agent_command is None
        else ["--agent", "command", "--agent-command", agent_command]
    )
    before = set(cwd.glob(".garuda/evals/*/report.json"))
    done = run_garuda(
        "eval",
        *agent,
        "-s",
        suite,
        "-t",
        task,
        "--executor",
        executor,
        *extra,
        cwd=cwd,
        timeout=timeout,
    )
    reports = sorted(set(cwd.glob(".garuda/evals/*/report.json")) - before)
    assert len(reports) == 1, f"no report (exit {done.returncode}): {done.stderr[-2000:]}"
    rows = json.loads(reports[0].read_text(encoding="utf-8"))["results"]
    assert len(rows) == 1, rows
    row = rows[0]
    return Played(
        status=row["status"],
        failure=row.get("failure"),
        suspicious=row.get("suspicious", []),
        left_out=row.get("leftOut", []),
        row=row,
        stdout=done.stdout,
        stderr=done.stderr,
    )


def assert_pinned(suite: Suite) -> None:
    """The suite's pinned expected tests are what its reference solutions make pass."""
    from garuda_evals.suites.pinning import record_expected

    recorded = record_expected(suite)
    pinned = {task.id: task.expected_tests for task in suite.tasks()}
    assert pinned == recorded, (
        f"expected tests of suite {suite.name} are stale: run "
        f"`.venv/bin/python -m garuda_evals.suites.pinning {suite.name}`"
    )


async def check_in_place(
    task: Task,
    workspace: Path,
    *,
    runner: CheckRunner,
    executor: Executor | None = None,
    timeout_s: float | None = None,
) -> Verdict:
    """The check run in the agent's own folder, with no fresh copy, canaries or pins.

    Only for control tests: it shows that a cheat the judge stops would pass a naive check.
    """
    from garuda_evals.judging.judge import check_outcome
    from garuda_evals.judging.verdict import rule

    plan = runner.plan(task.check.command.replace("{canaries}", ""), workspace)
    limit = timeout_s if timeout_s is not None else task.check.timeout_s
    result = await (executor or HostExecutor()).run(
        plan.command, cwd=workspace, env=check_environment(), timeout_s=limit
    )
    evidence = runner.evidence(plan, workspace, result)
    ruling = rule(
        result, evidence, runner=runner, limit_s=limit, canaries=None, nonce="", expected=None
    )
    return Verdict(ruling.passed, ruling.reason, check_outcome(plan, result, evidence))


def run_settings(**values: Any) -> RunSettings:
    """RunSettings from flag names as ``garuda eval`` takes them, plugin options included.

    ``run_settings(model="anthropic/x", agent="garuda")`` puts ``model`` under the plugin
    that owns ``--model``; an option no installed plugin owns is a TypeError.
    """
    from garuda_evals.plugins.manager import get_registry

    core = {key: value for key, value in values.items() if key in RunSettings.model_fields}
    options: dict[str, dict[str, Any]] = {}
    owners = {
        option.name: owner
        for owner, registered in get_registry().options().items()
        for option in registered.record.options
    }
    for key, value in values.items():
        if key in core:
            continue
        if key not in owners:
            raise TypeError(f"no installed plugin owns the option {key!r}")
        options.setdefault(owners[key], {})[key] = value
    return RunSettings(**core, options=options)


@dataclass(frozen=True)
class Staged:
    """A play that differs from the others: another suite (a name or a folder), executor."""

    command: str | None
    suite: str | None = None
    executor: str = "os"


@contextlib.contextmanager
def play_all(
    suite: str,
    task: str,
    commands: Mapping[K, str | Staged | None],
    *,
    workers: int,
    timeout: float = 600,
    prefix: str = "garuda-redteam-",
) -> Iterator[dict[K, Future[Played]]]:
    """Start every play at once, ``workers`` at a time, each in a folder of its own.

    ``commands`` maps a key to an agent command (None: the oracle), or to a ``Staged`` play.
    The folders are removed when the ``with`` block ends.
    """
    root = Path(tempfile.mkdtemp(prefix=prefix))

    def one(index: int, command: str | Staged | None) -> Played:
        cwd = root / str(index)
        cwd.mkdir()
        staged = command if isinstance(command, Staged) else Staged(command)
        return play(
            staged.suite or suite,
            task,
            staged.command,
            cwd=cwd,
            executor=staged.executor,
            timeout=timeout,
        )

    try:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            yield {
                key: pool.submit(one, index, command)
                for index, (key, command) in enumerate(commands.items())
            }
    finally:
        shutil.rmtree(root, ignore_errors=True)


def check_soundness(
    suite: Suite,
    *,
    backend: ExecutorBackend | None = None,
    repeat: int = 1,
    parallel: int = 4,
    timeout_s: float | None = None,
) -> SuiteSoundness:
    """What ``garuda suite check`` finds in ``suite`` (host executor, one solved run by default)."""
    from garuda_evals.suites.soundness import check_suite

    async def run() -> SuiteSoundness:
        return await check_suite(
            suite,
            backend=backend or HostBackend(),
            repeat=repeat,
            parallel=parallel,
            timeout_s=timeout_s,
        )

    return anyio.run(run)


def assert_sound(soundness: SuiteSoundness) -> None:
    """Every task of the checked suite is sound; else each task's problems, by name."""
    problems = [f"{item.task}: {problem}" for item in soundness.tasks for problem in item.problems]
    assert not problems, f"suite {soundness.suite} is not sound:\n" + "\n".join(problems)
