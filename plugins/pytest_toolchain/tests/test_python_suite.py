"""The python suite's records and data: names, task ids, checks, and broken manifests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from garuda_evals.errors import FileFormatError
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.suites.base import Suite
from garuda_evals.suites.folder import load_folder_suite
from garuda_evals_python.runner import PytestCheckRunner
from garuda_evals_python.suite import suite_root


def test_records_come_from_this_distribution(registry: PluginRegistry) -> None:
    suite = registry.collect("garuda_suites")["python"]
    assert suite.distribution == "garuda-evals-python"
    assert suite.record.requires == ("pytest",)
    toolchains = registry.collect("garuda_toolchains")
    assert toolchains["python"].record is toolchains["pytest"].record
    runner = registry.collect("garuda_check_runners")["pytest"].record.load()
    assert isinstance(runner, PytestCheckRunner)
    assert runner.name == "pytest"


def test_suite_has_five_tasks_with_stable_ids(python_suite: Suite, task_ids: list[str]) -> None:
    assert python_suite.name == "python"
    assert [task.id for task in python_suite.tasks()] == task_ids


def test_every_task_is_a_small_src_layout_project(python_suite: Suite) -> None:
    for task in python_suite.tasks():
        assert task.requires == ["pytest"], task.id
        assert task.suite == "python"
        assert "pyproject.toml" in task.files
        sources = [p for p in task.files if p.startswith("src/") and p.endswith(".py")]
        tests = [p for p in task.files if p.startswith("tests/test_")]
        assert len(sources) >= 3, f"{task.id}: {sources}"
        assert len(tests) >= 2, f"{task.id}: {tests}"
        assert task.solution is not None and task.solution.files, task.id
        assert all(p.startswith("src/") for p in task.solution.files), task.id
        assert {"tests/", "pyproject.toml"} <= set(task.protected)
        assert len(task.prompt) > 200, task.id


def test_check_reads_only_the_protected_config_and_writes_junit(python_suite: Suite) -> None:
    for task in python_suite.tasks():
        command = task.check.command
        assert task.check.runner == "pytest"
        assert task.check.timeout_s == 120
        assert "python3 -P -m pytest" in command
        for guard in ("-c pyproject.toml", "--noconftest", "-p no:cacheprovider", "{junit}"):
            assert guard in command, guard
        assert command.startswith("PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 ")


def test_shared_pyproject_uses_src_layout(python_suite: Suite) -> None:
    pyproject = python_suite.tasks()[0].files["pyproject.toml"]
    assert 'pythonpath = ["src"]' in pyproject
    assert 'testpaths = ["tests"]' in pyproject


def _copy_suite(tmp_path: Path) -> Path:
    copy = tmp_path / "python"
    shutil.copytree(suite_root(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_broken_task_manifest_names_the_file_and_the_field(tmp_path: Path) -> None:
    copy = _copy_suite(tmp_path)
    manifest = copy / "02-last-short-chunk" / "task.toml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("title = ", "titel = "), encoding="utf-8")
    with pytest.raises(FileFormatError) as raised:
        load_folder_suite(copy).tasks()
    message = str(raised.value)
    assert str(manifest) in message
    assert "'title'" in message


def test_wrong_type_in_task_manifest_names_the_field(tmp_path: Path) -> None:
    copy = _copy_suite(tmp_path)
    manifest = copy / "04-duration-from-tests" / "task.toml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8") + '\nrequires = "pytest"\n', encoding="utf-8"
    )
    with pytest.raises(FileFormatError) as raised:
        load_folder_suite(copy).tasks()
    assert str(manifest) in str(raised.value)
    assert "'requires'" in str(raised.value)
