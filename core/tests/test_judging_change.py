"""Carrying the agent's change into the judge's fresh copy (``apply_change``), on real
folders: regular files only, protected files reported and never copied, the caps."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from garuda_evals.judging.change import apply_change

MIB = 1024 * 1024
PROTECTED = ["tests/", "pom.xml"]


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path]:
    """The task's fresh copy (``judge``) and the agent's folder made from the same files."""
    judge = tmp_path / "judge"
    (judge / "src").mkdir(parents=True)
    (judge / "tests").mkdir()
    (judge / "src" / "calc.py").write_text("def add(a, b): ...\n")
    (judge / "src" / "keep.py").write_text("kept\n")
    (judge / "tests" / "test_calc.py").write_text("def test_add(): ...\n")
    (judge / "pom.xml").write_text("<project/>\n")
    agent = tmp_path / "agent"
    shutil.copytree(judge, agent, symlinks=True)
    return agent, judge


def test_an_unchanged_folder_carries_nothing(pair: tuple[Path, Path]) -> None:
    agent, judge = pair
    change = apply_change(agent, judge, PROTECTED)
    assert (change.copied, change.deleted, change.left_out, change.protected) == ([], [], [], [])
    assert change.copied_bytes == 0


def test_changed_and_new_files_are_copied_with_their_folders(pair: tuple[Path, Path]) -> None:
    agent, judge = pair
    (agent / "src" / "calc.py").write_text("def add(a, b): return a + b\n")
    (agent / "src" / "deep" / "er").mkdir(parents=True)
    (agent / "src" / "deep" / "er" / "new.py").write_text("x = 1\n")
    (agent / "top.txt").write_text("")
    change = apply_change(agent, judge, PROTECTED)
    assert change.copied == ["src/calc.py", "src/deep/er/new.py", "top.txt"]
    assert (judge / "src" / "calc.py").read_text() == "def add(a, b): return a + b\n"
    assert (judge / "src" / "deep" / "er" / "new.py").read_text() == "x = 1\n"
    assert (judge / "top.txt").read_bytes() == b""
    assert change.copied_bytes == len("def add(a, b): return a + b\n") + len("x = 1\n")
    assert change.left_out == [] and change.protected == [] and change.deleted == []


def test_a_removed_file_is_removed_from_the_copy(pair: tuple[Path, Path]) -> None:
    agent, judge = pair
    (agent / "src" / "keep.py").unlink()
    change = apply_change(agent, judge, PROTECTED)
    assert change.deleted == ["src/keep.py"]
    assert not (judge / "src" / "keep.py").exists()
    assert (judge / "src" / "calc.py").exists()


def test_a_removed_folder_removes_every_file_below_it(pair: tuple[Path, Path]) -> None:
    agent, judge = pair
    (judge / "src" / "a" / "b").mkdir(parents=True)
    (judge / "src" / "a" / "b" / "deep.py").write_text("deep\n")
    shutil.rmtree(agent / "src")
    change = apply_change(agent, judge, PROTECTED)
    assert change.deleted == ["src/a/b/deep.py", "src/calc.py", "src/keep.py"]


@pytest.mark.parametrize(
    "folder", [".git", "node_modules", "__pycache__", "target", ".garuda-check"]
)
def test_files_in_skipped_folders_of_the_task_are_not_deleted(
    pair: tuple[Path, Path], folder: str
) -> None:
    agent, judge = pair
    (judge / "src" / folder).mkdir()
    (judge / "src" / folder / "cached").write_text("task's own\n")
    change = apply_change(agent, judge, PROTECTED)
    assert change.deleted == [] and change.left_out == []
    assert (judge / "src" / folder / "cached").read_text() == "task's own\n"


@pytest.mark.parametrize(
    "folder", [".git", "node_modules", "__pycache__", "target", ".garuda-check"]
)
def test_skipped_folders_the_agent_made_are_left_out_and_never_copied(
    pair: tuple[Path, Path], folder: str
) -> None:
    agent, judge = pair
    (agent / "src" / folder).mkdir()
    (agent / "src" / folder / "planted.py").write_text("fake\n")
    change = apply_change(agent, judge, PROTECTED)
    assert change.left_out == [
        f"src/{folder}/: build output, caches and dependencies are not judged"
    ]
    assert change.copied == []
    assert not (judge / "src" / folder).exists()


def test_a_skipped_folder_the_task_has_too_is_not_reported_nor_entered(
    pair: tuple[Path, Path],
) -> None:
    agent, judge = pair
    for root in (agent, judge):
        (root / "node_modules").mkdir()
    (agent / "node_modules" / "dep.js").write_text("planted\n")
    change = apply_change(agent, judge, PROTECTED)
    assert change.left_out == [] and change.copied == []
    assert not (judge / "node_modules" / "dep.js").exists()


def test_a_folder_whose_name_only_contains_a_skipped_name_is_judged(
    pair: tuple[Path, Path],
) -> None:
    agent, judge = pair
    (agent / "targets").mkdir()
    (agent / "targets" / "a.py").write_text("a\n")
    assert apply_change(agent, judge, PROTECTED).copied == ["targets/a.py"]


@pytest.mark.parametrize("suffix", [".pyc", ".pyo", ".class"])
def test_new_bytecode_is_left_out(pair: tuple[Path, Path], suffix: str) -> None:
    agent, judge = pair
    (agent / "src" / f"calc{suffix}").write_bytes(b"\x00" * 16)
    change = apply_change(agent, judge, PROTECTED)
    assert change.left_out == [f"src/calc{suffix}: bytecode and build output are not judged"]
    assert change.copied == [] and not (judge / "src" / f"calc{suffix}").exists()


def test_changed_bytecode_the_task_has_is_neither_copied_nor_reported(
    pair: tuple[Path, Path],
) -> None:
    agent, judge = pair
    (judge / "src" / "calc.pyc").write_bytes(b"task")
    (agent / "src" / "calc.pyc").write_bytes(b"agent")
    change = apply_change(agent, judge, PROTECTED)
    assert change.left_out == [] and change.copied == []
    assert (judge / "src" / "calc.pyc").read_bytes() == b"task"


def test_a_bytecode_name_inside_a_file_name_is_not_bytecode(pair: tuple[Path, Path]) -> None:
    agent, judge = pair
    (agent / "src" / "notes.pyc.txt").write_text("text\n")
    assert apply_change(agent, judge, PROTECTED).copied == ["src/notes.pyc.txt"]


def test_protected_files_changed_added_and_deleted_are_reported_never_copied(
    pair: tuple[Path, Path],
) -> None:
    agent, judge = pair
    (agent / "tests" / "test_calc.py").write_text("def test_add(): pass\n")
    (agent / "tests" / "test_new.py").write_text("def test_x(): pass\n")
    (agent / "pom.xml").unlink()
    (agent / "src" / "calc.py").write_text("fixed\n")
    change = apply_change(agent, judge, PROTECTED)
    assert change.protected == [
        "deleted pom.xml",
        "changed tests/test_calc.py",
        "added tests/test_new.py",
    ]
    assert change.copied == ["src/calc.py"] and change.deleted == []
    assert (judge / "tests" / "test_calc.py").read_text() == "def test_add(): ...\n"
    assert not (judge / "tests" / "test_new.py").exists()
    assert (judge / "pom.xml").read_text() == "<project/>\n"


def test_the_protected_list_is_sorted_by_path_whatever_the_verb(pair: tuple[Path, Path]) -> None:
    agent, judge = pair
    (agent / "tests" / "a.py").write_text("a\n")
    (agent / "tests" / "test_calc.py").unlink()
    (agent / "tests" / "b.py").write_text("b\n")
    change = apply_change(agent, judge, PROTECTED)
    assert change.protected == [
        "added tests/a.py",
        "added tests/b.py",
        "deleted tests/test_calc.py",
    ]


def test_an_unchanged_protected_file_is_not_reported(pair: tuple[Path, Path]) -> None:
    agent, judge = pair
    os.utime(agent / "tests" / "test_calc.py", (0, 0))
    assert apply_change(agent, judge, PROTECTED).protected == []


def test_a_link_is_left_out_and_its_target_never_read(
    pair: tuple[Path, Path], tmp_path: Path
) -> None:
    agent, judge = pair
    answer = tmp_path / "answer.py"
    answer.write_text("def add(a, b): return a + b\n")
    (agent / "src" / "calc.py").unlink()
    (agent / "src" / "calc.py").symlink_to(answer)
    change = apply_change(agent, judge, PROTECTED)
    assert change.left_out == ["src/calc.py: a symbolic link, not a regular file"]
    assert change.copied == [] and change.deleted == []
    assert (judge / "src" / "calc.py").read_text() == "def add(a, b): ...\n"


def test_a_link_the_task_has_too_is_not_reported(pair: tuple[Path, Path]) -> None:
    agent, judge = pair
    for root in (agent, judge):
        (root / "src" / "alias.py").symlink_to("calc.py")
    assert apply_change(agent, judge, PROTECTED).left_out == []


def test_a_link_changed_from_the_tasks_own_is_left_out(pair: tuple[Path, Path]) -> None:
    agent, judge = pair
    (judge / "src" / "alias.py").symlink_to("calc.py")
    (agent / "src" / "alias.py").symlink_to("keep.py")
    change = apply_change(agent, judge, PROTECTED)
    assert change.left_out == ["src/alias.py: a symbolic link, not a regular file"]
    assert os.readlink(judge / "src" / "alias.py") == "calc.py"


def test_a_link_where_the_task_has_a_file_is_left_out(pair: tuple[Path, Path]) -> None:
    agent, judge = pair
    (agent / "src" / "keep.py").unlink()
    (agent / "src" / "keep.py").symlink_to("calc.py")
    change = apply_change(agent, judge, PROTECTED)
    assert change.left_out == ["src/keep.py: a symbolic link, not a regular file"]
    assert change.deleted == []


def test_protected_links_and_fifos_are_protected_changes(pair: tuple[Path, Path]) -> None:
    agent, judge = pair
    (agent / "tests" / "test_calc.py").unlink()
    (agent / "tests" / "test_calc.py").symlink_to("/etc/hostname")
    os.mkfifo(agent / "tests" / "test_fifo.py")
    change = apply_change(agent, judge, PROTECTED)
    assert change.protected == [
        "changed tests/test_calc.py (a symbolic link)",
        "added tests/test_fifo.py (a FIFO)",
    ]
    assert change.left_out == []


def test_a_fifo_is_left_out_without_blocking(pair: tuple[Path, Path]) -> None:
    agent, judge = pair
    os.mkfifo(agent / "src" / "pipe")
    change = apply_change(agent, judge, PROTECTED)
    assert change.left_out == ["src/pipe: a FIFO, not a regular file"]


def test_a_file_of_exactly_the_size_cap_is_copied_one_byte_more_left_out(
    pair: tuple[Path, Path],
) -> None:
    agent, judge = pair
    (agent / "src" / "exact.bin").write_bytes(b"x" * (5 * MIB))
    (agent / "src" / "over.bin").write_bytes(b"y" * (5 * MIB + 1))
    change = apply_change(agent, judge, PROTECTED)
    assert change.copied == ["src/exact.bin"]
    assert change.left_out == ["src/over.bin: larger than 5 MiB"]
    assert change.copied_bytes == 5 * MIB
    assert not (judge / "src" / "over.bin").exists()


def test_a_protected_file_past_the_size_cap_is_a_protected_change(
    pair: tuple[Path, Path],
) -> None:
    agent, judge = pair
    (agent / "tests" / "test_calc.py").write_bytes(b"#" * (5 * MIB + 1))
    change = apply_change(agent, judge, PROTECTED)
    assert change.protected == ["changed tests/test_calc.py"]
    assert change.left_out == []


def test_only_the_first_fifty_left_out_paths_are_kept(pair: tuple[Path, Path]) -> None:
    agent, judge = pair
    for index in range(51):
        os.mkfifo(agent / "src" / f"p{index:02d}")
    change = apply_change(agent, judge, PROTECTED)
    assert change.left_out == [
        f"src/p{index:02d}: a FIFO, not a regular file" for index in range(50)
    ]


def test_a_file_whose_place_in_the_task_is_a_link_or_folder_is_left_out(
    pair: tuple[Path, Path], tmp_path: Path
) -> None:
    agent, judge = pair
    outside = tmp_path / "outside"
    outside.mkdir()
    (judge / "linked").symlink_to(outside)
    (agent / "linked").mkdir()
    (agent / "linked" / "escape.py").write_text("escape\n")
    (judge / "src" / "pipe.py").unlink(missing_ok=True)
    os.mkfifo(judge / "src" / "pipe.py")
    (agent / "src" / "pipe.py").write_text("over a fifo\n")
    change = apply_change(agent, judge, PROTECTED)
    assert sorted(change.left_out) == [
        "linked/escape.py: its place in the task is not a plain file",
        "src/pipe.py: its place in the task is not a plain file",
    ]
    assert change.copied == []
    assert list(outside.iterdir()) == []


def test_protected_changes_are_sorted_by_the_whole_path_even_with_spaces(
    pair: tuple[Path, Path],
) -> None:
    agent, judge = pair
    (judge / "tests" / "x a.py").write_text("a\n")
    (agent / "tests" / "x z.py").write_text("z\n")
    change = apply_change(agent, judge, PROTECTED)
    assert change.protected == ["deleted tests/x a.py", "added tests/x z.py"]


@pytest.mark.parametrize("where", ["src/b", "."])
def test_a_folder_that_cannot_be_listed_is_left_out_naming_it(
    tmp_path: Path, where: str, as_nobody: Callable[[Path, Callable[[], object]], object]
) -> None:
    root = tmp_path / "root"
    (root / "judge").mkdir(parents=True)
    (root / "agent" / "src" / "b").mkdir(parents=True)
    (root / "agent" / where).chmod(0)
    try:
        if os.geteuid() == 0:
            left_out = as_nobody(
                root, lambda: apply_change(Path("agent"), Path("judge"), []).left_out
            )
        else:
            left_out = apply_change(root / "agent", root / "judge", []).left_out
    finally:
        (root / "agent" / where).chmod(0o755)
    assert left_out == [f"{where}: cannot be listed (Permission denied)"]


def test_a_link_of_the_task_the_agent_removed_is_not_followed_to_delete(
    pair: tuple[Path, Path],
) -> None:
    """The task's own links (to a folder, to a file) are not task files: removing them in
    the agent's folder deletes nothing in the copy, least of all through them."""
    agent, judge = pair
    (judge / "alias").symlink_to("src")
    (judge / "alias.py").symlink_to("src/calc.py")
    change = apply_change(agent, judge, PROTECTED)
    assert change.deleted == [] and change.left_out == []
    assert (judge / "alias").is_symlink() and (judge / "alias.py").is_symlink()
    assert (judge / "src" / "calc.py").read_text() == "def add(a, b): ...\n"
    assert (judge / "src" / "keep.py").exists()


def test_a_deleted_protected_file_does_not_stop_the_other_deletions(
    pair: tuple[Path, Path],
) -> None:
    agent, judge = pair
    (agent / "pom.xml").unlink()
    (agent / "src" / "keep.py").unlink()
    change = apply_change(agent, judge, PROTECTED)
    assert change.protected == ["deleted pom.xml"]
    assert change.deleted == ["src/keep.py"]


def test_the_total_cap_leaves_out_what_comes_after_it(pair: tuple[Path, Path]) -> None:
    """20 files of 5 MiB fill the 100 MiB cap exactly; one more byte is left out."""
    agent, judge = pair
    (agent / "big").mkdir()
    for index in range(20):
        (agent / "big" / f"{index:02d}.bin").write_bytes(bytes([index]) * (5 * MIB))
    (agent / "big" / "20.bin").write_bytes(b"!")
    change = apply_change(agent, judge, PROTECTED)
    assert change.copied == [f"big/{index:02d}.bin" for index in range(20)]
    assert change.left_out == ["big/20.bin: past the 100 MiB cap"]
    assert change.copied_bytes == 100 * MIB
    assert not (judge / "big" / "20.bin").exists()


def test_a_folder_of_more_entries_than_the_cap_is_cut(tmp_path: Path) -> None:
    """20 000 entries are walked; the walk stops at the next one, naming its folder.

    The entries are FIFOs at protected paths: cheap to make, and each a protected change
    rather than a left-out line (those are capped at 50, which would hide the cut's line).
    """
    judge, agent = tmp_path / "judge", tmp_path / "agent"
    judge.mkdir()
    (agent / "many").mkdir(parents=True)
    for index in range(19_998):
        os.mkfifo(agent / "many" / f"{index:05d}")
    (agent / "many" / "zz.py").write_text("last\n")
    change = apply_change(agent, judge, ["many/"])
    assert change.left_out == [] and change.protected[-1] == "added many/zz.py"
    os.mkfifo(agent / "many" / "extra")
    change = apply_change(agent, judge, ["many/"])
    assert change.left_out == ["many: more than 20000 entries"]
    assert change.protected[-1] == "added many/extra (a FIFO)"


def test_an_executable_the_agent_made_is_carried_without_its_executable_bit(
    pair: tuple[Path, Path],
) -> None:
    """Cheat: a runner stand-in (``node``, ``python3``) in the workspace, found first when
    the user's PATH holds ``.`` or a relative folder. Played under bwrap with ``PATH=.:$PATH``
    on the node suite, the real node ran: the copy is not executable."""
    agent, judge = pair
    (agent / "node").write_text("#!/bin/sh\nexit 0\n")
    (agent / "node").chmod(0o755)
    change = apply_change(agent, judge, PROTECTED)
    assert change.copied == ["node"]
    assert not os.access(judge / "node", os.X_OK)
