"""Bad input is one line naming the file, the line or entry, and the field; exit 1."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from .conftest import Imported


def _error(done) -> str:  # type: ignore[no-untyped-def]
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


def test_a_bad_instance_names_the_line_and_the_field(imported: Imported, tmp_path: Path) -> None:
    rows = imported.instances()
    rows[1]["FAIL_TO_PASS"] = '["not closed"'
    bad = tmp_path / "instances.jsonl"
    bad.write_text("".join(json.dumps(row) + "\n" for row in rows))
    args = imported.import_args(output=tmp_path / "s")
    args[2] = str(bad)
    line = _error(imported.garuda(*args))
    assert line.startswith(
        f"garuda: error: {bad}:2: field 'FAIL_TO_PASS': Value error, not a JSON list"
    )
    rows[1]["FAIL_TO_PASS"] = "[]"
    rows[2]["instance_id"] = rows[0]["instance_id"]
    bad.write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert _error(imported.garuda(*args)).startswith(
        f"garuda: error: {bad}:2: field 'FAIL_TO_PASS'"
    )
    rows[1]["FAIL_TO_PASS"] = '["a"]'
    bad.write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert _error(imported.garuda(*args)) == (
        f"garuda: error: {bad}:3: field 'instance_id': acme__calc-1 is also on line 1"
    )


def test_bad_flags_are_one_line(imported: Imported, tmp_path: Path) -> None:
    line = _error(imported.garuda(*imported.import_args("--filter", "(", output=tmp_path / "s")))
    assert line.startswith("garuda: error: --filter (: not a regular expression")
    args = imported.import_args(output=tmp_path / "s")
    args[args.index("--env-recipe") + 1] = str(tmp_path / "none.toml")
    assert (
        _error(imported.garuda(*args))
        == f"garuda: error: {tmp_path / 'none.toml'}: cannot read: No such file or directory"
    )
    (tmp_path / "recipe.toml").write_text('[repos."acme/calc"]\nsetup = []\n')
    args[args.index("--env-recipe") + 1] = str(tmp_path / "recipe.toml")
    assert _error(imported.garuda(*args)).startswith(
        f"garuda: error: {tmp_path / 'recipe.toml'}: field 'repos.acme/calc.setup'"
    )
    unknown = _error(imported.garuda("import", "harbour", "x"))
    assert unknown.startswith("garuda: error: import harbour: no suite builder imports 'harbour'")


def _copy(imported: Imported, tmp_path: Path) -> Path:
    copy = tmp_path / "suite"
    shutil.copytree(imported.suite, copy)
    return copy


def test_a_corrupt_saved_suite_names_the_file_and_the_field(
    imported: Imported, tmp_path: Path
) -> None:
    copy = _copy(imported, tmp_path)
    index = copy / "swe-suite.json"
    data = json.loads(index.read_text())
    data["tasks"][0]["failToPass"] = "tests/test_funcs.py::test_f0"
    index.write_text(json.dumps(data))
    line = _error(imported.garuda("eval", "-s", str(copy), "--agent", "noop"))
    assert (
        line == f"garuda: error: {index}: field 'tasks.0.failToPass': Input should be a valid list"
    )
    data["schemaVersion"] = 2
    index.write_text(json.dumps(data))
    line = _error(imported.garuda("suite", "check", str(copy)))
    assert line.startswith(f"garuda: error: {index}: field 'schemaVersion': 2 is not 1")


def test_a_corrupt_task_file_names_it(imported: Imported, tmp_path: Path) -> None:
    copy = _copy(imported, tmp_path)
    task = copy / "tasks" / "acme__calc-2.json"
    task.write_text(json.dumps({"solution": {"../x.py": ""}, "tests": {}}))
    line = _error(imported.garuda("eval", "-s", str(copy), "--agent", "noop"))
    assert line.startswith(f"garuda: error: {task}: field 'solution")


def test_predictions_are_checked_before_any_run(imported: Imported, tmp_path: Path) -> None:
    path = tmp_path / "predictions.jsonl"
    line = {"instance_id": "acme__calc-1", "model_patch": ""}
    path.write_text(json.dumps(line) + "\n" + json.dumps(line) + "\n")
    assert _error(imported.garuda("grade", str(path), "-s", str(imported.suite))) == (
        f"garuda: error: {path}:2: field 'instance_id': acme__calc-1 is also predicted at {path}:1"
    )
    path.write_text(json.dumps({"instance_id": "other__repo-1", "model_patch": ""}) + "\n")
    done = imported.garuda("grade", str(path), "-s", str(imported.suite))
    assert done.returncode == 1
    assert "not graded: not in suite suite: other__repo-1" in done.stderr
    assert f"garuda: error: {path}: no prediction is for a task of suite suite" in done.stderr
