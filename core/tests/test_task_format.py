"""The on-disk task format: valid suites load, broken ones name the file and the field."""

from pathlib import Path

import pytest

from garuda_evals.errors import FileFormatError
from garuda_evals.suites.folder import load_folder_suite


def test_mini_suite_loads_with_shared_files_and_defaults(mini_suite: Path) -> None:
    suite = load_folder_suite(mini_suite)
    tasks = suite.tasks()
    assert [t.id for t in tasks] == ["add", "greet"]
    add = tasks[0]
    assert add.suite == "mini"
    assert set(add.files) == {"pyproject.toml", "src/calc.py", "tests/test_calc.py"}
    assert add.solution is not None and "src/calc.py" in add.solution.files
    assert "pyproject.toml" in add.protected and "tests/" in add.protected
    assert add.check.runner == "junit" and add.check.timeout_s == 60


@pytest.mark.parametrize(
    ("content", "field"),
    [
        ('prompt = "x"\n', "title"),
        ('title = "t"\nprompt = "x"\ncolour = "red"\n', "colour"),
        ('title = "t"\nprompt = ""\n', "prompt"),
        ('title = "t"\nprompt = "x"\nid = "has space"\n', "id"),
    ],
)
def test_broken_task_manifest_names_file_and_field(
    mini_suite: Path, content: str, field: str
) -> None:
    (mini_suite / "add" / "task.toml").write_text(content)
    with pytest.raises(FileFormatError) as caught:
        load_folder_suite(mini_suite).tasks()
    message = str(caught.value)
    assert str(mini_suite / "add" / "task.toml") in message
    assert f"field '{field}'" in message
    assert "\n" not in message


def test_invalid_toml_is_named(mini_suite: Path) -> None:
    (mini_suite / "greet" / "task.toml").write_text("title = \n")
    with pytest.raises(FileFormatError, match=r"greet/task.toml: not valid TOML"):
        load_folder_suite(mini_suite).tasks()


def test_missing_suite_manifest_and_duplicate_ids(mini_suite: Path, tmp_path: Path) -> None:
    with pytest.raises(FileFormatError, match=r"suite\.toml: not found"):
        load_folder_suite(tmp_path)
    (mini_suite / "greet" / "task.toml").write_text('id = "add"\ntitle = "t"\nprompt = "p"\n')
    with pytest.raises(FileFormatError, match="two tasks have the id 'add'"):
        load_folder_suite(mini_suite).tasks()


def test_task_file_may_not_shadow_a_shared_file(mini_suite: Path) -> None:
    (mini_suite / "add" / "files" / "pyproject.toml").write_text("[tool.pytest.ini_options]\n")
    with pytest.raises(FileFormatError, match="also a shared file"):
        load_folder_suite(mini_suite).tasks()


def test_binary_task_file_is_refused(mini_suite: Path) -> None:
    (mini_suite / "add" / "files" / "blob.bin").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(FileFormatError, match="must be UTF-8 text"):
        load_folder_suite(mini_suite).tasks()
