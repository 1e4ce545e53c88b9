"""Escape attempts under the real bwrap, run through the executor as a check would be.

Each attempt is judged on the host: the file that must not appear, the connection the host
server must not accept, the process that must not survive.
"""

from __future__ import annotations

import shlex
import shutil
import socket
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import anyio
import pytest

from garuda_evals.executors.base import CommandResult, Executor
from garuda_evals.testing import skip_or_fail
from garuda_evals_sandbox.lab import Lab
from garuda_evals_sandbox.options import HOST_NETWORK, NETWORK
from garuda_evals_sandbox.processes import kill_all, survivors
from garuda_evals_sandbox_bwrap import BwrapBackend


@pytest.fixture
def lab() -> Iterator[Lab]:
    with Lab() as made:
        yield made


@pytest.fixture
def executor(lab: Lab) -> Iterator[Executor]:
    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    backend = BwrapBackend()
    state = backend.availability()
    if not state.ok:
        skip_or_fail("bwrap", state.reason)
    made = backend.create(lab.policy())
    yield made
    anyio.run(made.aclose)


def run(executor: Executor, lab: Lab, command: str, timeout_s: float = 60.0) -> CommandResult:
    async def go() -> CommandResult:
        return await executor.run(command, cwd=lab.work, env=lab.env(), timeout_s=timeout_s)

    return anyio.run(go)


def py(code: str) -> str:
    return f"python3 -c {shlex.quote(code)}"


def test_writes_outside_the_folder_fail(executor: Executor, lab: Lab) -> None:
    targets = [lab.outside / "pwned", lab.root / "pwned", Path("/var/tmp") / f"pwned-{lab.token}"]
    for target in targets:
        result = run(executor, lab, f"echo x > {target}")
        assert result.exit_code != 0
        # Folders outside the allow-list are absent; the sandbox's own root is read-only.
        assert any(m in result.output for m in ("Read-only file system", "No such file")), target
        assert not target.exists()
    run(executor, lab, f"echo x > {lab.host_tmp_file}")
    assert not lab.host_tmp_file.exists(), "/tmp inside must be private"
    inside = run(executor, lab, "echo ok > inside.txt")
    assert inside.exit_code == 0
    assert (lab.work / "inside.txt").read_text() == "ok\n"


def test_writes_to_home_fail(executor: Executor, lab: Lab) -> None:
    real_home_target = Path.home() / f"garuda-pwned-{lab.token}"
    try:
        result = run(executor, lab, f'echo x > "$HOME/pwned"; echo x > {real_home_target}')
        assert "Read-only file system" in result.output
        assert not (lab.home / "pwned").exists()
        assert not real_home_target.exists()
    finally:
        real_home_target.unlink(missing_ok=True)


def test_planted_ssh_key_is_unreadable(executor: Executor, lab: Lab) -> None:
    result = run(executor, lab, 'cat "$HOME/.ssh/id_ed25519"; ls -a "$HOME"')
    assert result.exit_code == 0, result.output  # ls of the empty home succeeds
    assert lab.token not in result.output
    assert "No such file or directory" in result.output


def test_real_home_is_empty_but_toolchains_inside_stay_readable(
    executor: Executor, lab: Lab
) -> None:
    home = Path.home()
    secrets_here = [p for p in (".ssh", ".npmrc", ".gitconfig", ".bashrc") if (home / p).exists()]
    listed = run(executor, lab, f"ls -a {home}")
    for name in secrets_here:
        assert name not in listed.output.split(), listed.output
    version = run(executor, lab, "python3 -c 'import sys; print(sys.version_info[:2])'")
    assert version.exit_code == 0, version.output


def test_mounts_cannot_be_undone_even_as_root(executor: Executor, lab: Lab) -> None:
    caps = run(executor, lab, "grep CapEff /proc/self/status")
    assert caps.output.split() == ["CapEff:", "0000000000000000"]
    command = (
        'umount -l "$HOME"; cat "$HOME/.ssh/id_ed25519"; '
        f"mount -o remount,rw / && echo x > {lab.outside}/remounted; "
        f"mount -t tmpfs none {lab.outside}"
    )
    result = run(executor, lab, command)
    assert lab.token not in result.output
    assert not (lab.outside / "remounted").exists()
    assert result.exit_code != 0


def test_tcp_to_the_hosts_loopback_fails(executor: Executor, lab: Lab) -> None:
    code = f"import socket; socket.create_connection(('127.0.0.1', {lab.tcp_port}), timeout=5)"
    result = run(executor, lab, py(code))
    assert result.exit_code != 0
    assert "Connection refused" in result.output
    assert lab.tcp.accepted == 0


def test_host_unix_sockets_fail(executor: Executor, lab: Lab) -> None:
    in_workspace = lab.work / "in.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(in_workspace))
    server.listen(1)
    server.settimeout(0.5)
    try:
        for path in (lab.unix_path, in_workspace):
            code = f"import socket; s = socket.socket(socket.AF_UNIX); s.connect({str(path)!r})"
            result = run(executor, lab, py(code))
            assert result.exit_code != 0
            assert "Permission denied" in result.output
        with pytest.raises(TimeoutError):
            server.accept()
        assert lab.unix.accepted == 0
    finally:
        server.close()


def test_the_users_checkout_is_hidden_but_shown_paths_stay(executor: Executor, lab: Lab) -> None:
    secret = run(executor, lab, f"cat {lab.checkout}/secret.txt")
    assert secret.exit_code != 0
    assert lab.token not in secret.output
    listing = run(executor, lab, f"ls -a {lab.checkout}")
    assert listing.output.split() == [".", "..", "node_modules"]
    shown = run(executor, lab, f"cat {lab.shown}/ok.txt")
    assert shown.exit_code == 0
    assert f"SHOWN-{lab.token}" in shown.output
    write = run(executor, lab, f"echo x > {lab.shown}/new.txt; echo x > {lab.checkout}/new.txt")
    assert "Read-only file system" in write.output
    assert not (lab.shown / "new.txt").exists()
    assert not (lab.checkout / "new.txt").exists()


def test_a_setsid_daemon_dies_at_the_time_limit(executor: Executor, lab: Lab) -> None:
    tag = f"garuda-escape-{lab.token}"
    daemon = shlex.quote(f"touch started; exec -a {tag} sleep 300")
    wait = "until [ -e started ]; do sleep 0.05; done"
    command = f"setsid bash -c {daemon} </dev/null >/dev/null 2>&1 & {wait}; sleep 60"
    result = run(executor, lab, command, timeout_s=4)
    alive = survivors(tag)
    kill_all(alive)
    assert result.timed_out
    assert (lab.work / "started").exists(), "the daemon never started: the test proves nothing"
    assert alive == []


def test_a_setsid_daemon_dies_when_the_command_ends(executor: Executor, lab: Lab) -> None:
    tag = f"garuda-escape-{lab.token}"
    daemon = shlex.quote(f"touch started; exec -a {tag} sleep 300")
    command = f"setsid bash -c {daemon} </dev/null >/dev/null 2>&1 & sleep 0.5; echo done"
    result = run(executor, lab, command)
    alive = survivors(tag)
    kill_all(alive)
    assert result.exit_code == 0
    assert (lab.work / "started").exists()
    assert alive == []


def test_cancelling_the_run_ends_the_sandboxed_tree(executor: Executor, lab: Lab) -> None:
    tag = f"garuda-escape-{lab.token}"
    daemon = shlex.quote(f"touch started; exec -a {tag} sleep 300")
    command = f"setsid bash -c {daemon} </dev/null >/dev/null 2>&1 & sleep 300"

    async def go() -> None:
        with anyio.move_on_after(3):  # what Ctrl-C does to the runner's task group
            await executor.run(command, cwd=lab.work, env=lab.env(), timeout_s=300)

    anyio.run(go)
    alive = survivors(tag)
    kill_all(alive)
    assert (lab.work / "started").exists()
    assert alive == []


def test_a_fork_of_many_processes_is_stopped_by_the_limit(executor: Executor, lab: Lab) -> None:
    tag = f"garuda-escape-{lab.token}"
    count = 100
    child = f"touch forked.$i; exec -a {tag} sleep 300"
    wait = f"until [ $(ls | grep -c forked) -ge {count} ]; do sleep 0.05; done"
    command = f"for i in $(seq {count}); do ({child}) & done; {wait}; sleep 60"
    result = run(executor, lab, command, timeout_s=6)
    alive = survivors(tag)
    kill_all(alive)
    assert result.timed_out
    assert len(list(lab.work.glob("forked.*"))) == count
    assert alive == []


def test_a_server_on_its_own_loopback_still_works(executor: Executor, lab: Lab) -> None:
    code = (
        "import socket, threading\n"
        "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen()\n"
        "def serve():\n"
        "    c, _ = s.accept(); c.sendall(c.recv(4).upper()); c.close()\n"
        "threading.Thread(target=serve).start()\n"
        "c = socket.create_connection(s.getsockname(), timeout=5); c.sendall(b'ping')\n"
        "print(c.recv(4).decode())\n"
    )
    result = run(executor, lab, py(code))
    assert result.exit_code == 0, result.output
    assert "PING" in result.output


def test_the_environment_is_exactly_what_the_caller_passes(
    executor: Executor, lab: Lab, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GARUDA_HOST_SECRET", lab.token)

    async def go() -> CommandResult:
        env = {**lab.env(), "GARUDA_TASK_ID": "t1"}
        return await executor.run("env", cwd=lab.work, env=env, timeout_s=30)

    result = anyio.run(go)
    assert result.exit_code == 0
    assert lab.token not in result.output, "the host's environment leaked in"
    seen = {line.partition("=")[0] for line in result.output.splitlines() if "=" in line}
    assert seen - {"PWD", "SHLVL", "_"} == {*lab.env(), "GARUDA_TASK_ID"}
    assert f"HOME={lab.home}" in result.output


def test_info_names_what_it_denies(executor: Executor) -> None:
    info = executor.info()
    assert (info.name, info.kind) == ("bwrap", "os")
    for denied in (
        "network",
        "unix sockets",
        "writes outside the folder",
        "home secrets",
        "reads outside the allow-list",
        "installed suite data",
    ):
        assert denied in info.denies
    assert "hidden paths" in info.denies


def test_host_network_reaches_the_host_but_still_no_unix_sockets(lab: Lab) -> None:
    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    backend = BwrapBackend()
    if not backend.availability().ok:
        skip_or_fail("bwrap", backend.availability().reason)
    policy = replace(lab.policy(), extra={NETWORK: HOST_NETWORK})
    executor = backend.create(policy)
    try:
        tcp = run(
            executor,
            lab,
            py(f"import socket; socket.create_connection(('127.0.0.1', {lab.tcp_port}))"),
        )
        unix = run(
            executor,
            lab,
            py(f"import socket; socket.socket(socket.AF_UNIX).connect({str(lab.unix_path)!r})"),
        )
        key = run(executor, lab, 'cat "$HOME/.ssh/id_ed25519"')
    finally:
        anyio.run(executor.aclose)
    assert tcp.exit_code == 0, tcp.output
    assert "Permission denied" in unix.output
    assert lab.unix.accepted == 0
    assert lab.token not in key.output
    assert "network" not in executor.info().denies
    assert "unix sockets" in executor.info().denies
