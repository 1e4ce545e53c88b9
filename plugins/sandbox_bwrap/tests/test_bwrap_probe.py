"""bwrap where it is restricted: a container that forbids /proc, blocked user namespaces.

Both are made real by running bwrap inside an outer bwrap: a new user namespace with
``--disable-userns`` (bwrap >= 0.8) refuses a fresh /proc to the inner one, and as uid 1000
it refuses the inner one any namespace at all.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

from garuda_evals.executors.base import SandboxPolicy
from garuda_evals.testing import skip_or_fail, skip_unless_required
from garuda_evals_sandbox_bwrap import BwrapBackend
from garuda_evals_sandbox_bwrap.executor import BwrapExecutor
from garuda_evals_sandbox_bwrap.probe import is_proc_refused, userns_message
from garuda_evals_sandbox_bwrap.seccomp import native_arch


@pytest.fixture
def bwrap() -> str:
    found = shutil.which("bwrap")
    if found is None:
        skip_or_fail("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    assert found is not None
    if not BwrapBackend().availability().ok:
        skip_or_fail("bwrap", BwrapBackend().availability().reason)
    usage = subprocess.run([found, "--help"], capture_output=True, text=True).stdout
    if "--disable-userns" not in usage:
        skip_unless_required(
            "bwrap", "this bwrap has no --disable-userns to build a restricted container"
        )
    return found


def outer(bwrap: str, *extra: str) -> tuple[str, ...]:
    return (
        bwrap,
        "--unshare-user",
        "--disable-userns",
        *extra,
        "--bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--",
        bwrap,
    )


ROOT_INSIDE = ("--uid", "0", "--gid", "0", "--cap-add", "ALL")


@pytest.fixture
def no_proc(bwrap: str) -> tuple[str, ...]:
    """A launcher whose inner bwrap may not mount /proc, like a restrictive container."""
    launcher = outer(bwrap, *ROOT_INSIDE)
    done = subprocess.run(
        [*launcher, "--ro-bind", "/", "/", "--unshare-pid", "--proc", "/proc", "--", "true"],
        capture_output=True,
        text=True,
    )
    if not is_proc_refused(done.stderr):
        skip_unless_required(
            "bwrap", f"this machine lets a nested bwrap mount /proc (as uid {os.getuid()})"
        )
    return launcher


@pytest.fixture
def work(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "work"
    folder.mkdir()
    yield folder


def test_where_proc_is_refused_the_backend_runs_without_it(
    no_proc: tuple[str, ...], work: Path
) -> None:
    backend = BwrapBackend(launcher=no_proc)
    assert backend.availability().ok, backend.availability().reason
    executor = backend.create(SandboxPolicy(workspace=work))
    assert isinstance(executor, BwrapExecutor)
    assert executor.mount_proc is False
    assert "no own /proc" in executor.info().detail

    target = Path("/var/tmp") / f"garuda-pwned-{secrets.token_hex(6)}"

    async def go() -> tuple[str, str]:
        ok = await executor.run("echo ok > f && cat f", cwd=work, env={}, timeout_s=30)
        escape = await executor.run(f"echo x > {target}", cwd=work, env={}, timeout_s=30)
        await executor.aclose()
        return ok.output, escape.output

    ok, escape = anyio.run(go)
    assert ok.strip() == "ok"
    # /var/tmp is absent, or read-only where garuda's own environment lives below it
    assert "No such file or directory" in escape or "Read-only file system" in escape
    assert not target.exists()


def test_a_command_that_meets_the_refusal_is_not_run_again_without_proc(
    no_proc: tuple[str, ...], work: Path
) -> None:
    """The probe alone decides: the refusal line may be the command's own (it would buy a
    rerun seeing the host's /proc, and through ``/proc/PID/root`` the host's files)."""
    arch = native_arch()
    assert arch is not None
    executor = BwrapExecutor(
        SandboxPolicy(workspace=work), launcher=no_proc, arch=arch, mount_proc=True
    )

    async def go() -> tuple[int | None, str]:
        result = await executor.run("echo ran >> runs", cwd=work, env={}, timeout_s=30)
        await executor.aclose()
        return result.exit_code, result.output

    code, output = anyio.run(go)
    assert code == 1 and is_proc_refused(output), output
    assert executor.mount_proc is True
    assert not (work / "runs").exists()


def test_blocked_user_namespaces_give_a_clear_reason(bwrap: str, work: Path) -> None:
    backend = BwrapBackend(launcher=outer(bwrap, "--uid", "1000", "--gid", "1000"))
    state = backend.availability()
    assert not state.ok
    assert "user namespaces are blocked" in state.reason
    assert "--executor host" in state.reason


def test_bwrap_errors_are_read_from_its_own_lines() -> None:
    assert is_proc_refused("bwrap: Can't mount proc on /newroot/proc: Operation not permitted")
    assert not is_proc_refused("Can't mount proc (printed by the command itself)")
    assert userns_message("bwrap: No permissions to creating new namespace, likely because")
    assert userns_message("bwrap: setting up uid map: Permission denied")
    assert userns_message("bwrap: execvp nope: No such file or directory") is None


def test_missing_bwrap_says_how_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    state = BwrapBackend().availability()
    assert not state.ok
    assert "apt-get install bubblewrap" in state.reason
    broken = BwrapBackend(launcher=(str(tmp_path / "bwrap"),)).availability()
    assert not broken.ok
    assert "bwrap does not work here" in broken.reason
