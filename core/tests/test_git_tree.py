"""Trees written without git are git's own trees: the same id as ``git add --all --force``
and ``git write-tree`` on the same folder, objects git can read, and git asked whenever the
folder holds something only git should decide about."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import anyio
import pytest

from garuda_evals.runner import git_tree, stored_change
from garuda_evals.runner.git_tree import write_tree
from garuda_evals.runner.stored_change import ChangeRecorder

BINARY = bytes(range(256)) * 5


def everything(folder: Path) -> None:
    """Folders, modes, links and names whose handling or order git defines."""
    (folder / "src" / "pkg").mkdir(parents=True)
    (folder / "src" / "pkg" / "mod.py").write_text("x = 1\n")
    (folder / "src" / "a.b").write_text("sorted before the folder a\n")
    (folder / "src" / "a").mkdir()
    (folder / "src" / "a" / "inner").write_text("in a/\n")
    (folder / "src" / "a-b").write_text("- sorts before /\n")
    (folder / "src" / "a0").write_text("0 sorts after /\n")
    for name, mode in [("run.sh", 0o755), ("user-x", 0o744), ("group-x", 0o654), ("ro", 0o444)]:
        (folder / name).write_text(f"{name}\n")
        (folder / name).chmod(mode)
    (folder / "image.bin").write_bytes(BINARY)
    (folder / "empty.txt").write_text("")
    (folder / "crlf.txt").write_bytes(b"one\r\n$Id$\r\ntwo\r\n")
    (folder / ".gitignore").write_text("*\n")
    (folder / ".gitattributes").write_text("* text eol=lf ident\n")
    (folder / "naïve name é.txt").write_text("unicode and a space\n")
    (folder / "link").symlink_to("src/pkg/mod.py")
    (folder / "dir-link").symlink_to("src")
    (folder / "dangling").symlink_to("nowhere/at/all")
    (folder / "empty-folder").mkdir()
    (folder / "only-bytecode" / "__pycache__").mkdir(parents=True)
    (folder / "only-bytecode" / "m.pyc").write_bytes(b"\x00")
    (folder / "node_modules" / "x").mkdir(parents=True)
    (folder / "node_modules" / "x" / "index.js").write_text("left out\n")
    (folder / "src" / "target").mkdir()
    (folder / "src" / "target" / "App.class").write_bytes(b"\xca\xfe")
    (folder / "src" / "node_modules").write_text("a file of that name is kept\n")
    (folder / "Main.class").write_bytes(b"\xca\xfe")
    (folder / "link.pyc").symlink_to("src")


def snapshot(folder: Path, *, by_git: bool) -> str:
    """The recorder's tree of ``folder``: written here, or (``by_git``) by git itself."""
    recorder = ChangeRecorder()
    try:
        if by_git:
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(stored_change, "write_tree", lambda git_dir, folder: None)
                return anyio.run(recorder.snapshot, folder)
        return anyio.run(recorder.snapshot, folder)
    finally:
        recorder.close()


def test_a_folder_of_everything_gets_gits_own_tree(tmp_path: Path) -> None:
    folder = tmp_path / "work"
    folder.mkdir()
    everything(folder)
    assert snapshot(folder, by_git=False) == snapshot(folder, by_git=True)


def test_git_reads_and_verifies_every_object_written_here(tmp_path: Path) -> None:
    folder, git_dir = tmp_path / "work", tmp_path / "objects-only.git"
    folder.mkdir()
    everything(folder)
    subprocess.run(["git", "init", "-q", "--bare", str(git_dir)], check=True)
    tree = write_tree(git_dir, folder)
    assert tree is not None
    git = ["git", "--git-dir", str(git_dir)]
    subprocess.run([*git, "fsck", "--strict", "--no-dangling"], check=True, capture_output=True)
    listed = subprocess.run(
        [*git, "ls-tree", "-r", tree], capture_output=True, check=True, text=True
    ).stdout
    assert "node_modules/x" not in listed and "Main.class" not in listed
    assert "120000 blob" in listed and "100755 blob" in listed
    assert "src/node_modules" in listed


def test_an_empty_folder_is_gits_empty_tree(tmp_path: Path) -> None:
    folder = tmp_path / "work"
    (folder / "nothing-kept" / "__pycache__").mkdir(parents=True)
    git_dir = tmp_path / "git"
    (git_dir / "objects").mkdir(parents=True)
    assert write_tree(git_dir, folder) == "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
    assert snapshot(folder, by_git=True) == "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


def _nested_repository(folder: Path) -> None:
    (folder / "vendor" / ".git").mkdir(parents=True)


def _git_file(folder: Path) -> None:
    (folder / ".git").write_text("gitdir: /elsewhere\n")


def _short_name(folder: Path) -> None:
    (folder / "GIT~1").write_text("an NTFS short name of .git\n")


def _stream_name(folder: Path) -> None:
    (folder / ".git::$INDEX_ALLOCATION").write_text("\n")


def _trailing_dot(folder: Path) -> None:
    (folder / ".git.").mkdir()
    (folder / ".git." / "config").write_text("\n")


def _linked_gitmodules(folder: Path) -> None:
    (folder / ".gitmodules").symlink_to("src")


def _fifo(folder: Path) -> None:
    os.mkfifo(folder / "pipe")


def _bytecode_named_folder(folder: Path) -> None:
    (folder / "odd.pyc").mkdir()
    (folder / "odd.pyc" / "inside.txt").write_text("\n")


@pytest.mark.parametrize(
    "plant",
    [
        _nested_repository,
        _git_file,
        _short_name,
        _stream_name,
        _trailing_dot,
        _linked_gitmodules,
        _fifo,
        _bytecode_named_folder,
    ],
)
def test_what_only_git_should_decide_is_left_to_git(
    tmp_path: Path, plant: Callable[[Path], None]
) -> None:
    folder, git_dir = tmp_path / "work", tmp_path / "git"
    folder.mkdir()
    (git_dir / "objects").mkdir(parents=True)
    (folder / "src").mkdir()
    (folder / "src" / "m.py").write_text("x = 1\n")
    assert write_tree(git_dir, folder) is not None
    plant(folder)
    assert write_tree(git_dir, folder) is None


def test_an_unreadable_file_is_left_to_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """(Root reads every file, so the refusal is played by ``open``.)"""
    folder, git_dir = tmp_path / "work", tmp_path / "git"
    (folder / "src").mkdir(parents=True)
    (folder / "src" / "m.py").write_text("x = 1\n")
    (git_dir / "objects").mkdir(parents=True)

    def refused(*args: object, **kwargs: object) -> NoReturn:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(git_tree, "open", refused, raising=False)
    assert write_tree(git_dir, folder) is None
    monkeypatch.undo()
    assert write_tree(git_dir, folder) is not None
