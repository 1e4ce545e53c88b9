"""Task files stay inside their folder: manifest paths, suite symlinks, and the oracle's writes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pydantic import ValidationError

from garuda_evals.agents.oracle import apply_solution
from garuda_evals.errors import FileFormatError, GarudaError
from garuda_evals.models.task import CheckSpec, Solution, Task
from garuda_evals.suites.folder import load_folder_suite

CHECK = CheckSpec(command="true", runner="junit")
OUTSIDE_PATHS = ["../x", "/abs/path", "a/../../x", "", "a//b", "./a", "a\\..\\b"]


def _set_task_toml(suite: Path, extra: str) -> Path:
    manifest = suite / "add" / "task.toml"
    manifest.write_text(manifest.read_text() + extra)
    return manifest


@pytest.mark.parametrize("path", OUTSIDE_PATHS)
def test_solution_delete_outside_the_task_is_a_format_error(mini_suite: Path, path: str) -> None:
    manifest = _set_task_toml(mini_suite, f"solution_delete = [{path!r}]\n")
    with pytest.raises(FileFormatError) as caught:
        load_folder_suite(mini_suite).tasks()
    assert str(manifest) in str(caught.value)
    assert "field 'solution_delete.0'" in str(caught.value)


def test_issue_example_solution_delete_does_not_reach_the_host(
    mini_suite: Path, tmp_path: Path
) -> None:
    victim = mini_suite / "x"
    victim.write_text("keep me")
    _set_task_toml(mini_suite, f'solution_delete = ["../x", "{victim}"]\n')
    with pytest.raises(FileFormatError, match="solution_delete"):
        load_folder_suite(mini_suite).tasks()
    assert victim.read_text() == "keep me"


@pytest.mark.parametrize("patterns", [["../../etc"], ["/etc/passwd"], ["tests/../../x"]])
def test_protected_outside_the_task_is_a_format_error(
    mini_suite: Path, patterns: list[str]
) -> None:
    manifest = _set_task_toml(mini_suite, f"protected = {patterns!r}\n".replace("'", '"'))
    with pytest.raises(FileFormatError) as caught:
        load_folder_suite(mini_suite).tasks()
    assert str(manifest) in str(caught.value) and "field 'protected.0'" in str(caught.value)


def test_suite_protected_outside_is_a_format_error(mini_suite: Path) -> None:
    suite_toml = mini_suite / "suite.toml"
    suite_toml.write_text(suite_toml.read_text().replace('["tests/"]', '["/etc/passwd"]'))
    with pytest.raises(FileFormatError, match=r"suite\.toml: field 'protected\.0'"):
        load_folder_suite(mini_suite)


def test_folder_patterns_and_nested_paths_stay_valid() -> None:
    task = Task(
        id="t",
        title="t",
        prompt="p",
        check=CHECK,
        files={"src/a/b.py": "x", ".hidden/f": "y"},
        protected=["tests/", "src/test/", "pom.xml", "data/golden.csv"],
        solution=Solution(files={"src/a/b.py": "z"}, delete=["old/file.py", "old/dir"]),
    )
    assert task.protected[0] == "tests/"


@pytest.mark.parametrize("path", OUTSIDE_PATHS)
@pytest.mark.parametrize("where", ["files", "solution_files", "solution_delete", "protected"])
def test_python_built_task_refuses_paths_outside(path: str, where: str) -> None:
    fields: dict = {"id": "t", "title": "t", "prompt": "p", "check": CHECK}
    if where == "files":
        fields["files"] = {path: "x"}
    elif where == "solution_files":
        fields["solution"] = {"files": {path: "x"}}
    elif where == "solution_delete":
        fields["solution"] = {"delete": [path]}
    else:
        fields["protected"] = [path]
    with pytest.raises(ValidationError):
        Task(**fields)


@pytest.mark.parametrize("folder", ["files", "solution", "shared"])
def test_symlink_in_a_suite_folder_is_refused_and_named(mini_suite: Path, folder: str) -> None:
    base = mini_suite / folder if folder == "shared" else mini_suite / "add" / folder
    link = base / "src" / "hostname.py"
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to("/etc/hostname")
    with pytest.raises(FileFormatError) as caught:
        load_folder_suite(mini_suite).tasks()
    assert str(link) in str(caught.value) and "symbolic link" in str(caught.value)


@pytest.mark.parametrize(
    "relative",
    ["add/task.toml", "add/files/src", "add/solution", "add/notes", "shared", "greet"],
)
def test_symlinked_manifest_or_folder_is_refused(mini_suite: Path, relative: str) -> None:
    target = mini_suite / relative
    moved = mini_suite.parent / f"moved-{target.name}"
    if target.exists():
        target.rename(moved)
    else:
        moved.mkdir()
    target.symlink_to(moved)
    with pytest.raises(FileFormatError) as caught:
        load_folder_suite(mini_suite).tasks()
    assert str(target) in str(caught.value) and "symbolic link" in str(caught.value)


def test_fifo_in_a_suite_folder_is_refused(mini_suite: Path) -> None:
    fifo = mini_suite / "add" / "files" / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(FileFormatError, match="not a regular file"):
        load_folder_suite(mini_suite).tasks()


def _outside(tmp_path: Path) -> tuple[Path, Path]:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    return workspace, outside


def test_oracle_replaces_a_planted_symlink_instead_of_writing_through_it(tmp_path: Path) -> None:
    workspace, outside = _outside(tmp_path)
    victim = outside / "victim.txt"
    victim.write_text("original")
    (workspace / "src").mkdir()
    (workspace / "src" / "calc.py").symlink_to(victim)
    apply_solution(workspace, Solution(files={"src/calc.py": "solved"}))
    assert victim.read_text() == "original"
    target = workspace / "src" / "calc.py"
    assert not target.is_symlink() and target.read_text() == "solved"


def test_oracle_refuses_a_symlinked_parent_folder(tmp_path: Path) -> None:
    workspace, outside = _outside(tmp_path)
    (workspace / "src").symlink_to(outside)
    with pytest.raises(GarudaError, match="symbolic link"):
        apply_solution(workspace, Solution(files={"src/calc.py": "solved"}))
    assert list(outside.iterdir()) == []


def test_oracle_deletion_never_follows_links(tmp_path: Path) -> None:
    workspace, outside = _outside(tmp_path)
    victim = outside / "victim.txt"
    victim.write_text("keep")
    (workspace / "old.py").symlink_to(victim)
    (workspace / "via").symlink_to(outside)
    apply_solution(workspace, Solution(delete=["old.py"]))
    assert victim.read_text() == "keep" and not (workspace / "old.py").is_symlink()
    with pytest.raises(GarudaError, match="symbolic link"):
        apply_solution(workspace, Solution(delete=["via/victim.txt"]))
    assert victim.read_text() == "keep"


def test_oracle_refuses_paths_outside_even_when_validation_was_skipped(tmp_path: Path) -> None:
    workspace, outside = _outside(tmp_path)
    victim = outside / "victim.txt"
    victim.write_text("keep")
    sneaky = Solution.model_construct(
        files={"../outside/new.txt": "x"}, delete=["../outside/victim.txt"]
    )
    with pytest.raises(GarudaError):
        apply_solution(workspace, sneaky)
    assert victim.read_text() == "keep" and not (outside / "new.txt").exists()


def test_oracle_keeps_file_mode_and_deletes_folders(tmp_path: Path) -> None:
    workspace, _ = _outside(tmp_path)
    script = workspace / "run.sh"
    script.write_text("old")
    script.chmod(0o755)
    (workspace / "gone" / "deep").mkdir(parents=True)
    (workspace / "gone" / "deep" / "f.py").write_text("x")
    apply_solution(workspace, Solution(files={"run.sh": "new"}, delete=["gone", "missing.py"]))
    assert script.read_text() == "new" and script.stat().st_mode & 0o777 == 0o755
    assert not (workspace / "gone").exists()
    assert sorted(p.name for p in workspace.iterdir()) == ["run.sh"]
