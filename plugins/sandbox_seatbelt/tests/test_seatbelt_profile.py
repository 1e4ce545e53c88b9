"""The Seatbelt profile text and argv, checked here; the real run needs macOS."""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from pathlib import Path

import anyio
import pytest

from garuda_evals.executors.base import SandboxPolicy
from garuda_evals_sandbox.options import HOST_NETWORK, NETWORK
from garuda_evals_sandbox_seatbelt import SeatbeltBackend
from garuda_evals_sandbox_seatbelt.executor import SeatbeltExecutor
from garuda_evals_sandbox_seatbelt.profile import SANDBOX_EXEC, build_argv, build_profile


def make_layout(tmp_path: Path) -> tuple[SandboxPolicy, dict[str, str], Path]:
    real = tmp_path / "real"
    (real / 'work ") (allow default) ;').mkdir(parents=True)
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".m2" / "repository").mkdir(parents=True)
    checkout = tmp_path / "checkout"
    (checkout / "node_modules").mkdir(parents=True)
    policy = SandboxPolicy(
        workspace=link / 'work ") (allow default) ;',
        hidden=(checkout,),
        read_only=(checkout / "node_modules",),
        env_allow=("PATH", "HOME"),
    )
    return policy, {"HOME": str(home), "PATH": "/usr/bin:/bin"}, tmp_path / "tmp"


def test_paths_are_parameters_never_profile_text(tmp_path: Path) -> None:
    policy, env, private_tmp = make_layout(tmp_path)
    profile = build_profile(policy, env, private_tmp)
    for value in profile.params.values():
        assert value not in profile.text
    assert str(tmp_path) not in profile.text
    assert "allow default" not in profile.text.replace("(deny default)", "")
    referenced = set(re.findall(r'\(param "([A-Z0-9_]+)"\)', profile.text))
    assert referenced == set(profile.params)


def test_paths_are_canonical(tmp_path: Path) -> None:
    policy, env, private_tmp = make_layout(tmp_path)
    params = build_profile(policy, env, private_tmp).params
    assert params["WORK"] == str((tmp_path / "real" / 'work ") (allow default) ;').resolve())
    assert "/link/" not in params["WORK"]
    assert params["TMP"] == str(private_tmp.resolve())
    hidden = {v for k, v in params.items() if k.startswith("HIDE_")}
    shown = {v for k, v in params.items() if k.startswith("SHOW_")}
    assert str((tmp_path / "home").resolve()) in hidden
    assert str((tmp_path / "checkout").resolve()) in hidden
    assert str((tmp_path / "checkout" / "node_modules").resolve()) in shown
    assert str((tmp_path / "home" / ".m2" / "repository").resolve()) in shown
    assert not any(".ssh" in v for v in shown)


def test_the_profile_denies_by_default_and_writes_only_work_and_tmp(tmp_path: Path) -> None:
    policy, env, private_tmp = make_layout(tmp_path)
    text = build_profile(policy, env, private_tmp).text
    assert text.startswith("(version 1)\n(deny default)\n")
    writes = [line for line in text.splitlines() if "file-write*" in line]
    assert writes == [
        '(allow file-read* file-write* (subpath (param "WORK")) (subpath (param "TMP")))'
    ]
    assert '(require-not (subpath (param "HIDE_0")))' in text
    assert "(remote unix-socket" not in text
    assert 'network-outbound (remote ip "localhost:*")' in text
    assert "(allow network*)" not in text
    closed = build_profile(
        SandboxPolicy(workspace=policy.workspace, allow_loopback=False), env, private_tmp
    ).text
    assert "network" not in closed


def test_argv_is_sandbox_exec_with_defines_then_bash(tmp_path: Path) -> None:
    policy, env, private_tmp = make_layout(tmp_path)
    profile = build_profile(policy, env, private_tmp)
    argv = build_argv(profile, "pytest -q")
    assert argv[:3] == [SANDBOX_EXEC, "-p", profile.text]
    defines = argv[3:-3]
    assert defines[0] == f"-DWORK={profile.params['WORK']}"
    assert all(arg.startswith("-D") and "=" in arg for arg in defines)
    assert len(defines) == len(profile.params)
    assert argv[-3:] == ["/bin/bash", "-c", "pytest -q"]


def test_the_environment_is_the_callers_with_a_private_tmpdir(tmp_path: Path) -> None:
    policy, env, _ = make_layout(tmp_path)
    executor = SeatbeltExecutor(policy)
    seen = executor.environment({**env, "GARUDA_TASK_ID": "t1"})
    assert set(seen) == {"PATH", "HOME", "GARUDA_TASK_ID", "TMPDIR"}
    assert Path(seen["TMPDIR"]).is_dir()
    anyio.run(executor.aclose)
    assert not Path(seen["TMPDIR"]).exists()


def test_off_macos_the_backend_says_why() -> None:
    if sys.platform == "darwin":
        pytest.skip("this machine is macOS: the real run is tested instead")
    state = SeatbeltBackend().availability()
    assert not state.ok
    assert "needs macOS" in state.reason
    info = SeatbeltBackend().info()
    assert info.kind == "os"
    assert "unix sockets" in info.denies


def test_host_network_opens_ip_but_not_unix_sockets(tmp_path: Path) -> None:
    policy, env, private_tmp = make_layout(tmp_path)
    shared = replace(policy, extra={NETWORK: HOST_NETWORK})
    text = build_profile(shared, env, private_tmp).text
    assert '(allow network-outbound (remote ip "*:*"))' in text
    assert '(remote ip "localhost:*")' not in text
    assert "unix-socket" not in text
    executor = SeatbeltExecutor(shared)
    assert not any(d.startswith("network") for d in executor.info().denies)
