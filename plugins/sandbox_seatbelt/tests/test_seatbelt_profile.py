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
from garuda_evals_sandbox.paths import is_within
from garuda_evals_sandbox_seatbelt import SeatbeltBackend
from garuda_evals_sandbox_seatbelt.executor import SeatbeltExecutor
from garuda_evals_sandbox_seatbelt.profile import (
    SANDBOX_EXEC,
    Profile,
    build_argv,
    build_profile,
)


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
    for name, value in profile.params.items():
        if not name.startswith("SYS_"):  # fixed system folders such as /dev
            assert value not in profile.text, name
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
    shown = {v for k, v in params.items() if k.startswith(("SHOW_", "RESHOW_", "SYS_"))}
    assert str((tmp_path / "home").resolve()) in hidden
    # The checkout is not on the allow-list at all; its node_modules is.
    assert str((tmp_path / "checkout").resolve()) not in shown
    assert str((tmp_path / "checkout" / "node_modules").resolve()) in shown
    m2 = str((tmp_path / "home" / ".m2" / "repository").resolve())
    assert m2 in shown and m2 in {v for k, v in params.items() if k.startswith("RESHOW_")}
    assert not any(".ssh" in v for v in shown)


def test_the_profile_denies_by_default_and_writes_only_work_and_tmp(tmp_path: Path) -> None:
    policy, env, private_tmp = make_layout(tmp_path)
    text = build_profile(policy, env, private_tmp).text
    assert text.startswith("(version 1)\n(deny default)\n")
    writes = [line for line in text.splitlines() if "file-write*" in line]
    assert writes == [
        '(allow file-read* file-write* (subpath (param "WORK")) (subpath (param "TMP")))'
    ]
    assert '(deny file-read* (subpath (param "HIDE_0"))' in text
    assert "(allow file-read*)" not in text
    reads = next(line for line in text.splitlines() if line.startswith("(allow file-read* (lit"))
    assert reads.startswith('(allow file-read* (literal "/") (subpath (param "SYS_0"))')
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


def plugin_venv(venv: Path) -> Path:
    """A virtual environment at ``venv`` with a garuda plugin installed; its site-packages."""
    site = venv / "lib" / "python3.11" / "site-packages"
    dist = site / "garuda_evals_x-0.1.dist-info"
    dist.mkdir(parents=True)
    (site / "garuda_evals_x" / "suite_data").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: garuda-evals-x\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[garuda_evals]\nx = garuda_evals_x\n")
    (dist / "RECORD").write_text("garuda_evals_x/__init__.py,,\n")
    return site


def readable(profile: Profile, path: Path) -> bool:
    """Whether ``profile`` lets ``path`` be read: in SBPL the last matching rule wins."""
    allowed = False
    for line in profile.text.splitlines():
        rule = re.match(r"\((allow|deny) file-read\*", line)
        names = re.findall(r'\(subpath \(param "([A-Z0-9_]+)"\)\)', line)
        if rule and any(is_within(path, Path(profile.params[name])) for name in names):
            allowed = rule.group(1) == "allow"
    return allowed


def test_installed_suite_data_is_denied_and_protected_paths_cannot_be_written(
    tmp_path: Path,
) -> None:
    venv = tmp_path / "env"
    site = plugin_venv(venv)
    work = tmp_path / "work"
    (work / "tests").mkdir(parents=True)
    (work / "tests" / "test_a.py").write_text("x")
    policy = SandboxPolicy(workspace=work, read_only=(venv, work / "tests" / "test_a.py"))
    profile = build_profile(policy, {"PATH": "/usr/bin"}, tmp_path / "tmp")
    named = {value: name for name, value in profile.params.items()}
    hide = named[str((site / "garuda_evals_x").resolve())]
    assert hide.startswith("HIDE_")
    assert named[str(venv.resolve())].startswith("SHOW_")
    protect = named[str((work / "tests" / "test_a.py").resolve())]
    assert protect.startswith("PROTECT_")
    lines = profile.text.splitlines()

    def line_of(fragment: str) -> int:
        return next(i for i, line in enumerate(lines) if fragment in line)

    # Later rules win: the deny after the allow of the environment; the write deny after WORK.
    assert line_of(f'(param "{named[str(venv.resolve())]}")') < line_of(f'(param "{hide}")')
    assert lines[line_of(f'(param "{hide}")')].startswith("(deny file-read*")
    assert line_of('(param "WORK")') < line_of(f'(param "{protect}")')
    assert lines[line_of(f'(param "{protect}")')].startswith("(deny file-write*")


def test_what_is_hidden_inside_a_path_shown_again_stays_hidden(tmp_path: Path) -> None:
    """The agent's virtual environment inside the hidden home is shown again, and the
    installed plugin's package inside it is hidden again, as the deeper mount is under bwrap."""
    home = (tmp_path / "home").resolve()
    venv = home / "agent" / ".venv"
    site = plugin_venv(venv)
    (home / ".ssh").mkdir()
    work = tmp_path / "work"
    work.mkdir()
    policy = SandboxPolicy(workspace=work, read_only=(venv,))
    profile = build_profile(policy, {"PATH": "/usr/bin", "HOME": str(home)}, tmp_path / "tmp")
    assert readable(profile, site / "other_package" / "x.py")
    assert not readable(profile, site / "garuda_evals_x" / "suite_data" / "t1" / "solution.py")
    assert not readable(profile, home / ".ssh" / "id_ed25519")
    assert readable(profile, Path(profile.params["WORK"]) / "a.py")
    assert not readable(profile, tmp_path / "elsewhere")
