"""Reading the agent's folder: regular files up to a limit, never a link or a FIFO; a link
among the parent folders is seen."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from garuda_evals.judging.files import has_linked_parent, read_regular


@pytest.mark.parametrize("size", [0, 1, 9, 10, (1 << 20) + 5])
def test_a_regular_file_up_to_the_limit_is_read_whole(tmp_path: Path, size: int) -> None:
    data = bytes(range(256)) * (size // 256) + bytes(size % 256)
    (tmp_path / "f").write_bytes(data)
    assert read_regular(tmp_path / "f", max(size, 10)) == data


@pytest.mark.parametrize(("size", "limit"), [(11, 10), (2, 1), (1, 0)])
def test_a_file_past_the_limit_is_none(tmp_path: Path, size: int, limit: int) -> None:
    (tmp_path / "f").write_bytes(b"x" * size)
    assert read_regular(tmp_path / "f", limit) is None


def test_a_link_to_a_regular_file_is_not_followed(tmp_path: Path) -> None:
    (tmp_path / "target").write_text("secret")
    (tmp_path / "link").symlink_to(tmp_path / "target")
    assert read_regular(tmp_path / "link", 100) is None
    assert read_regular(tmp_path / "target", 100) == b"secret"


def test_a_fifo_is_none_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    assert read_regular(tmp_path / "pipe", 100) is None


def test_a_folder_and_a_missing_file_are_none(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    assert read_regular(tmp_path / "dir", 100) is None
    assert read_regular(tmp_path / "missing", 100) is None


def test_a_linked_parent_folder_is_seen_at_any_depth(tmp_path: Path) -> None:
    (tmp_path / "real" / "deep").mkdir(parents=True)
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    assert has_linked_parent(tmp_path, "a/b/link/deep/file.py")
    assert has_linked_parent(tmp_path, "a/b/link/file.py")
    assert not has_linked_parent(tmp_path, "a/b/link")
    assert not has_linked_parent(tmp_path, "a/b/file.py")
    assert not has_linked_parent(tmp_path, "file.py")


def test_a_file_in_place_of_a_parent_folder_counts_as_linked(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "plain").write_text("")
    assert has_linked_parent(tmp_path, "a/plain/x.py")


def test_a_missing_parent_is_not_linked(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path, target_is_directory=True)
    assert not has_linked_parent(tmp_path, "nothing/here/x.py")
    assert has_linked_parent(tmp_path, "a/x.py")


def test_a_file_longer_than_its_stat_says_is_none(tmp_path: Path) -> None:
    """A file that grew after ``fstat`` (here a proc file, whose size reads as 0) is read one
    byte past the limit, so it cannot pass as a prefix of itself."""
    grown = Path("/proc/self/status")
    if not grown.exists():
        pytest.skip("needs Linux's /proc")
    assert os.stat(grown).st_size == 0
    assert read_regular(grown, 10) is None
    whole = read_regular(grown, 1 << 20)
    assert whole is not None and whole.startswith(b"Name:") and len(whole) > 10
