"""Scratch folders removed in the background during a run, all of them before it ends."""

from __future__ import annotations

import stat
import threading
from pathlib import Path

import anyio
import pytest

from garuda_evals import removal
from garuda_evals.removal import BACKLOG, remove_soon, removing_in_background


def _folder(root: Path, name: str) -> Path:
    """A folder as a check leaves it: files, and a folder it made read-only."""
    folder = root / name
    (folder / "pkg" / "__pycache__").mkdir(parents=True)
    (folder / "pkg" / "mod.py").write_text("x = 1\n")
    (folder / "pkg" / "__pycache__" / "mod.pyc").write_bytes(b"\0" * 64)
    (folder / "pkg").chmod(stat.S_IRUSR | stat.S_IXUSR)
    return folder


@pytest.fixture
def removers(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of the thread each folder was removed in (the real removal runs)."""
    names: list[str] = []
    real = removal.remove_tree

    def remove_tree(path: Path) -> None:
        names.append(threading.current_thread().name)
        real(path)

    monkeypatch.setattr(removal, "remove_tree", remove_tree)
    return names


def test_outside_a_run_a_folder_is_removed_at_once(tmp_path: Path, removers: list[str]) -> None:
    folder = _folder(tmp_path, "one")
    remove_soon(folder)
    assert not folder.exists()
    assert removers == [threading.current_thread().name]


def test_in_a_run_the_worker_removes_them_and_all_are_gone_when_it_ends(
    tmp_path: Path, removers: list[str]
) -> None:
    folders = [_folder(tmp_path, f"run-{index}") for index in range(3 * BACKLOG)]

    async def run() -> None:
        async with removing_in_background():
            for folder in folders:
                await anyio.to_thread.run_sync(remove_soon, folder)

    anyio.run(run)
    assert [folder for folder in folders if folder.exists()] == []
    assert len(removers) == len(folders)
    assert "garuda-removal" in removers


def test_a_run_stopped_by_ctrl_c_still_removes_what_it_handed_over(
    tmp_path: Path, removers: list[str]
) -> None:
    folders = [_folder(tmp_path, f"run-{index}") for index in range(4)]

    async def run() -> None:
        with anyio.CancelScope() as scope:
            async with removing_in_background():
                for folder in folders:
                    remove_soon(folder)
                scope.cancel()
                await anyio.sleep(60)

    anyio.run(run)
    assert [folder for folder in folders if folder.exists()] == []
    assert "garuda-removal" in removers


def test_a_full_backlog_removes_at_once_without_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that cannot keep up never stalls the caller (the event loop, for bwrap)."""
    release = threading.Event()
    real = removal.remove_tree

    def slow(path: Path) -> None:
        if threading.current_thread().name == "garuda-removal":
            release.wait(30)
        real(path)

    monkeypatch.setattr(removal, "remove_tree", slow)
    folders = [_folder(tmp_path, f"run-{index}") for index in range(BACKLOG + 3)]

    async def run() -> list[bool]:
        async with removing_in_background():
            for folder in folders:
                remove_soon(folder)
            gone = [not folder.exists() for folder in folders]
            release.set()
            return gone

    gone = anyio.run(run)
    assert any(gone[BACKLOG:])  # past the backlog: removed by the caller, at once
    assert [folder for folder in folders if folder.exists()] == []
