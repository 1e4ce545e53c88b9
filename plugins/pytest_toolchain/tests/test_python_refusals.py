"""Which agent-changed files the pytest runner refuses, and which it lets through."""

from __future__ import annotations

import pytest

from garuda_evals.suites.base import Suite
from garuda_evals_python.refusals import import_roots, python_refusals


def _files(python_suite: Suite) -> dict[str, str]:
    return next(t for t in python_suite.tasks() if t.id == "last-short-chunk").files


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("src/difflib.py", "shadows the standard-library module difflib (import root src/)"),
        ("src/json/__init__.py", "shadows the standard-library module json"),
        ("json.py", "shadows the standard-library module json (import root the workspace root)"),
        ("tests/pprint.py", "shadows the standard-library module pprint (import root tests/)"),
        ("src/xml/etree/ElementTree.py", "shadows the standard-library module xml"),
        ("src/pytest.py", "shadows the test runner's module pytest"),
        ("src/_pytest/reports.py", "shadows the test runner's module _pytest"),
        ("src/pluggy/__init__.py", "shadows the test runner's module pluggy"),
        ("src/py.py", "shadows the test runner's module py"),
        ("src/packaging/version.py", "shadows the test runner's module packaging"),
        ("iniconfig.py", "shadows the test runner's module iniconfig"),
        ("src/sitecustomize.py", "is a sitecustomize module, which Python's start-up imports"),
        ("usercustomize.py", "is a usercustomize module"),
        ("src/enum.cpython-311-x86_64-linux-gnu.so", "shadows the standard-library module enum"),
        ("src/zz_patch.pth", "is a .pth file"),
        ("src/bulkupload/evil.pth", "is a .pth file"),
        ("conftest.py", "would configure pytest"),
        ("src/bulkupload/conftest.py", "would configure pytest"),
        ("pytest.ini", "would configure pytest"),
        (".pytest.ini", "would configure pytest"),
        ("pytest.toml", "would configure pytest"),
        (".pytest.toml", "would configure pytest"),
        ("tox.ini", "would configure pytest"),
        ("setup.cfg", "would configure pytest"),
    ],
)
def test_refused(python_suite: Suite, path: str, says: str) -> None:
    lines = python_refusals(_files(python_suite), [path])
    assert len(lines) == 1
    assert lines[0].startswith(path)
    assert says in lines[0]


@pytest.mark.parametrize(
    "path",
    [
        "src/bulkupload/batching.py",
        "src/bulkupload/json.py",
        "src/bulkupload/helpers/__init__.py",
        "src/bulkupload_extra.py",
        "src/README.md",
        "notes.txt",
        "docs/json.py",
        "src/json.txt",
    ],
)
def test_allowed(python_suite: Suite, path: str) -> None:
    assert python_refusals(_files(python_suite), [path]) == []


def test_a_package_the_task_ships_is_not_a_shadow() -> None:
    files = {"src/types/__init__.py": "", "tests/test_types.py": "", "pyproject.toml": ""}
    assert python_refusals(files, ["src/types/__init__.py", "src/types/more.py"]) == []
    assert python_refusals(files, ["src/enum.py"]) != []


def test_import_roots_follow_pythonpath_and_test_folders() -> None:
    files = {
        "pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["lib", "."]\n',
        "checks/unit/test_a.py": "",
    }
    assert import_roots(files) == ["", "checks", "checks/unit", "lib", "src", "tests"]
    assert python_refusals(files, ["lib/json.py", "checks/unit/csv.py"]) == [
        "lib/json.py shadows the standard-library module json (import root lib/)",
        "checks/unit/csv.py shadows the standard-library module csv (import root checks/unit/)",
    ]


def test_one_line_per_refused_file(python_suite: Suite) -> None:
    changed = ["src/bulkupload/batching.py", "src/difflib.py", "conftest.py", "x.pth"]
    assert len(python_refusals(_files(python_suite), changed)) == 3
