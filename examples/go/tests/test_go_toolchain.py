"""The go toolchain: its probe passes here, and what it says when Go is missing or too old."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import anyio
import pytest

from garuda_evals.testing import run_garuda
from garuda_evals.toolchains import ToolchainStatus, probe_toolchain
from garuda_evals_go.toolchain import HINT, MIN_GO, go_toolchain


def test_the_probe_passes_with_a_new_enough_go(go: ToolchainStatus) -> None:
    assert go.ok, go.output_head
    assert go.version is not None
    assert tuple(int(part) for part in go.version.split(".")[:2]) >= (1, 21)


def test_a_too_old_go_is_refused_with_the_hint(go: ToolchainStatus) -> None:
    toolchain = dataclasses.replace(go_toolchain(), min_version="99.0")
    status = anyio.run(probe_toolchain, toolchain)
    assert not status.ok
    assert status.hint == f"go {go.version} is older than 99.0. {HINT}"
    assert MIN_GO in HINT


def test_go_installed_off_path_is_named_with_its_folder(
    go: ToolchainStatus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Go unpacked in ~/go (or /usr/local/go) but not on PATH: the hint says where it is."""
    real = shutil.which("go")
    assert real is not None
    home = tmp_path / "home"
    (home / "go" / "bin").mkdir(parents=True)
    (home / "go" / "bin" / "go").symlink_to(real)
    tools = tmp_path / "bin"
    tools.mkdir()
    for name in ("grep", "cat", "sh"):
        found = shutil.which(name)
        assert found is not None
        (tools / name).symlink_to(found)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PATH", str(tools))
    monkeypatch.delenv("GOPATH", raising=False)
    status = anyio.run(probe_toolchain, go_toolchain())
    assert not status.ok
    where = home / "go" / "bin"
    assert status.hint.startswith(HINT)
    assert f"`go` is installed at {where / 'go'} but {where} is not on PATH" in status.hint


def test_list_shows_the_suite_with_its_toolchain(go: ToolchainStatus, tmp_path: Path) -> None:
    done = run_garuda("eval", "--list", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.split()[:5] == ["go", "3", "tasks", "·", "needs"] for line in lines)
    assert any(line.split()[:3] == ["go", "go", go.version] for line in lines), done.stdout


def test_the_installed_suite_is_in_all_and_in_eval_help(tmp_path: Path) -> None:
    """An installed suite is one of ``-s all``'s, and ``--help`` names it and its toolchain."""
    from garuda_evals.plugins.manager import get_registry
    from garuda_evals.runner.selection import suite_names

    assert "go" in suite_names(["all"], get_registry().suites())
    done = run_garuda("eval", "--help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    shown = " ".join(done.stdout.split())
    suites = shown.split("-s, --suite TEXT a suite (", 1)[1].split(")", 1)[0]
    assert "go" in suites.split(", ")
    assert "prepare a toolchain and exit: go (golang), " in shown
