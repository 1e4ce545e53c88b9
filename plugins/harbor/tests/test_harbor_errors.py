"""Bad input is one line naming the argument, flag, file or field, exit 1: never a traceback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .conftest import Imported


def _error(done: object) -> str:
    assert done.returncode == 1, done.stdout + done.stderr  # type: ignore[attr-defined]
    assert "Traceback" not in done.stderr  # type: ignore[attr-defined]
    lines = done.stderr.strip().splitlines()  # type: ignore[attr-defined]
    assert len(lines) == 1, done.stderr  # type: ignore[attr-defined]
    return str(lines[0])


def test_bad_arguments_and_flags(imported: Imported, tmp_path: Path) -> None:
    assert _error(imported.garuda("import", "harbor", str(tmp_path / "nope"))) == (
        f"garuda: error: TASKS_DIR {tmp_path / 'nope'}: not a folder"
    )
    (tmp_path / "foreign").mkdir()
    (tmp_path / "foreign" / "notes.txt").write_text("mine\n")
    foreign = imported.garuda(*imported.import_args(output=tmp_path / "foreign"))
    assert _error(foreign) == (
        f"garuda: error: -o {tmp_path / 'foreign'}: a folder that holds no harbor-suite.json: "
        "give a new or empty folder"
    )
    assert foreign.stdout == ""
    assert _error(imported.garuda(*imported.import_args("--filter", "("))).startswith(
        "garuda: error: --filter (: not a regular expression:"
    )


@pytest.mark.parametrize("command", ["eval", "suite check"])
def test_a_corrupt_saved_task_names_the_file_and_field(
    imported: Imported, tmp_path: Path, command: str
) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(imported.suite, broken)
    task = broken / "tasks" / "greeting.json"
    data = json.loads(task.read_text())
    data["files"] = 5
    task.write_text(json.dumps(data))
    args = ["-s", str(broken), "--agent", "oracle"] if command == "eval" else [str(broken)]
    done = imported.garuda(*command.split(), *args)
    assert _error(done).endswith(f"{task}: field 'files': Input should be a valid dictionary")
