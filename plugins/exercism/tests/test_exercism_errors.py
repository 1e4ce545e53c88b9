"""Bad input is one line naming the argument, flag, file or field, exit 1: never a traceback."""

from __future__ import annotations

from pathlib import Path

from .conftest import Imported


def _error(done: object) -> str:
    assert done.returncode == 1, done.stdout + done.stderr  # type: ignore[attr-defined]
    assert "Traceback" not in done.stderr  # type: ignore[attr-defined]
    lines = done.stderr.strip().splitlines()  # type: ignore[attr-defined]
    assert len(lines) == 1, done.stderr  # type: ignore[attr-defined]
    return str(lines[0])


def test_bad_arguments_flags_and_saved_files(imported: Imported, tmp_path: Path) -> None:
    assert _error(imported.garuda("import", "exercism", str(tmp_path / "nope"))) == (
        f"garuda: error: TRACK_DIR {tmp_path / 'nope'}: not a folder"
    )
    (tmp_path / "foreign").mkdir()
    (tmp_path / "foreign" / "notes.txt").write_text("mine\n")
    assert _error(imported.garuda(*imported.import_args(output=tmp_path / "foreign"))) == (
        f"garuda: error: -o {tmp_path / 'foreign'}: a folder that holds no "
        "exercism-suite.json: give a new or empty folder"
    )
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "exercism-suite.json").write_text(
        '{"schemaVersion": 1, "name": "x", "source": "y", "tasks": [{"id": 3, "digest": "d"}]}'
    )
    assert _error(imported.garuda("suite", "check", str(broken))).endswith(
        "exercism-suite.json: field 'tasks.0.id': Input should be a valid string"
    )
