"""``.garuda/evals/repo-suite.json``: the saved repo suite (schema version 3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError

from garuda_evals.api import FileFormatError, Model, describe_validation_error, parse_json

EVALS_DIR = Path(".garuda") / "evals"
SUITE_FILE = EVALS_DIR / "repo-suite.json"
SCHEMA_VERSION = 3


class RepoHeldOut(Model):
    """Test functions of the commit held out of the agent's copy of its test files (drawn
    when the suite was built), and canaries shaped like them; only the judge runs them."""

    tests: dict[str, str] = Field(
        description="test file -> its preamble and its held-out tests, one test per unit"
    )
    canaries: dict[str, str] = Field(
        description="test file -> its preamble and the canaries of its held-out tests"
    )
    ids: list[str] = Field(description="the held-out tests' ids in the report at the commit")


class RepoTask(Model):
    """One mined task: the commit, its parent and what the agent is given and checked with."""

    id: str
    commit: str
    parent: str
    subject: str
    prompt: str
    test_files: dict[str, str] = Field(
        description="the commit's test files as the agent gets them (held-out tests taken out)"
    )
    deleted_tests: list[str] = Field(default_factory=list)
    check_command: str
    check_runner: str
    protected: list[str]
    fail_to_pass: list[str] = Field(default_factory=list)
    expected_tests: list[str] = Field(
        description="every test id that passes at the commit: a PASS needs each of them"
    )
    strength: float | None = Field(
        default=None, description="share of the reference change's mutants the tests reject"
    )
    mutants: int = 0
    held_out: RepoHeldOut | None = Field(
        default=None, description="tests only the judge runs (None: none held out)"
    )


class RepoSuiteFile(Model):
    """The whole file: where it was mined, with which command, and the kept tasks."""

    version: Literal[3]
    root: str
    head: str
    test_command: str
    tasks: list[RepoTask]


def write_private(root: Path) -> Path:
    """Make ``.garuda/evals`` with a ``.gitignore`` of ``*``, so git status stays as it was."""
    folder = root / EVALS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    ignore = root / ".garuda" / ".gitignore"
    if not ignore.exists():
        ignore.write_text("*\n", encoding="utf-8")
    return folder


def save_suite(root: Path, suite: RepoSuiteFile) -> Path:
    """Write the suite file under ``root`` and return its path."""
    write_private(root)
    path = root / SUITE_FILE
    path.write_text(json.dumps(suite.to_json_dict(), indent=2) + "\n", encoding="utf-8")
    return path


def load_suite(path: Path) -> RepoSuiteFile:
    """Read and validate a suite file; a corrupt or foreign file names the file and the field."""
    data = parse_json(path)
    if isinstance(data, dict) and data.get("version") == 1:
        raise FileFormatError(
            f"{path}: field 'expectedTests' is missing (schema version 1, from an older garuda): "
            "build the suite again with garuda eval --from-git"
        )
    if isinstance(data, dict) and data.get("version") == 2:
        raise FileFormatError(
            f"{path}: field 'heldOut' is missing (schema version 2, from an older garuda: its "
            "tasks hold out no test): build the suite again with garuda eval --from-git"
        )
    if isinstance(data, dict) and data.get("version") not in (None, SCHEMA_VERSION):
        raise FileFormatError(
            f"{path}: field 'version': {data.get('version')!r} is not {SCHEMA_VERSION} "
            "(build the suite again with garuda eval --from-git)"
        )
    try:
        return RepoSuiteFile.model_validate(data)
    except ValidationError as error:
        raise FileFormatError(describe_validation_error(path, error)) from error
