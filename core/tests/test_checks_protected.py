"""The protected-file snapshot on real folders: what a pattern protects, links and folders
that cannot be listed, and the size cap on what is hashed."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

from garuda_evals.checks.protected import changes, is_protected, snapshot

MIB = 1024 * 1024


def test_a_file_named_like_a_protected_folder_is_not_protected() -> None:
    assert not is_protected("src/tests", ["tests/"])
    assert not is_protected("tests", ["tests/"])
    assert is_protected("src/tests/x", ["tests/"])
    assert not is_protected("a/b", ["a/b/"])
    assert is_protected("a/b/c", ["a/b/"])


def test_a_file_name_pattern_protects_that_name_at_any_depth() -> None:
    assert is_protected("a/b/pom.xml", ["pom.xml"])
    assert is_protected("a/b/c/pom.xml", ["pom.xml"])
    assert not is_protected("a/pom.xml/c", ["pom.xml"])
    assert not is_protected("a/b/pom.xml", ["b/pom.xml"])
    assert is_protected("b/pom.xml", ["b/pom.xml"])


def test_a_link_to_a_folder_is_recorded_never_entered(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("s")
    workspace = tmp_path / "ws"
    (workspace / "tests").mkdir(parents=True)
    (workspace / "tests" / "linked").symlink_to(outside)
    (workspace / "tests" / "test_a.py").write_text("a")
    assert snapshot(workspace, ["tests/"]) == {
        "tests/linked": "(a symbolic link)",
        "tests/test_a.py": hashlib.sha256(b"a").hexdigest(),
    }


def test_every_folder_beside_another_is_walked(tmp_path: Path) -> None:
    for name in ("a", "b", "c"):
        (tmp_path / "tests" / name).mkdir(parents=True)
        (tmp_path / "tests" / name / "t.py").write_text(name)
    assert sorted(snapshot(tmp_path, ["tests/"])) == [
        "tests/a/t.py",
        "tests/b/t.py",
        "tests/c/t.py",
    ]


def test_files_up_to_the_cap_are_hashed_larger_ones_marked(tmp_path: Path) -> None:
    """Sparse files: 64 MiB of zeros read fast."""
    (tmp_path / "tests").mkdir()
    with (tmp_path / "tests" / "exact.bin").open("wb") as file:
        file.truncate(64 * MIB)
    with (tmp_path / "tests" / "over.bin").open("wb") as file:
        file.truncate(64 * MIB + 1)
    found = snapshot(tmp_path, ["tests/"])
    assert found["tests/exact.bin"] == hashlib.sha256(bytes(64 * MIB)).hexdigest()
    assert found["tests/over.bin"] == "(unreadable)"


def test_a_folder_that_cannot_be_listed_is_passed_over_and_the_rest_walked(
    tmp_path: Path, as_nobody: Callable[[Path, Callable[[], object]], object]
) -> None:
    """Two folders, each holding a test and a folder nobody can list: whichever is walked
    first meets its locked folder while the other still waits, and that one is walked too."""
    workspace = tmp_path / "ws"
    for name in ("a", "b"):
        (workspace / "tests" / name / "locked").mkdir(parents=True)
        (workspace / "tests" / name / "t.py").write_text(name)
        (workspace / "tests" / name / "locked").chmod(0)
    try:
        if os.geteuid() == 0:
            found = as_nobody(workspace, lambda: snapshot(Path("."), ["tests/"]))
        else:
            found = snapshot(workspace, ["tests/"])
    finally:
        for name in ("a", "b"):
            (workspace / "tests" / name / "locked").chmod(0o755)
    assert sorted(found) == ["tests/a/t.py", "tests/b/t.py"]


def test_changes_are_sorted_by_the_whole_path_even_with_spaces_in_it() -> None:
    before = {"x z": "1", "m n": "1"}
    after = {"x a": "1", "m n": "2"}
    assert changes(before, after) == ["changed m n", "added x a", "deleted x z"]
