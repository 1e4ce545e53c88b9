"""Read a saved report.json: the one reader of ``garuda runs``, ``report``, ``compare`` and
``regrade``, so each refuses the same files with the same line."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from garuda_evals.errors import FileFormatError, describe_validation_error
from garuda_evals.files import parse_json
from garuda_evals.models.report import SCHEMA_VERSION, Report
from garuda_evals.runner.journal import MANIFEST_FILE, RESULTS_FILE

FIELD = "schemaVersion"


def schema_problem(value: object, reads: int) -> str | None:
    """Why a file whose schema version is ``value`` cannot be read by code that reads
    ``reads`` (compared as versions with ``packaging``: ``1.0`` is ``1``); None when it can."""
    from packaging.version import InvalidVersion, Version

    if value is None:
        return f"missing (this garuda-evals reads {reads})"
    try:
        found = Version(str(value)) if not isinstance(value, bool) else None
    except InvalidVersion:
        found = None
    wanted = Version(str(reads))
    if found == wanted:
        return None
    problem = f"expected {reads}, got {value!r}"
    if found is not None and found > wanted:
        problem += " (written by a newer garuda-evals: upgrade it to read this file)"
    return problem


def _unfinished(file: Path) -> FileFormatError | None:
    folder = file.parent
    saved = folder / RESULTS_FILE
    if not (folder / MANIFEST_FILE).is_file() and not saved.is_file():
        return None
    runs = saved.read_bytes().count(b"\n") if saved.is_file() else 0
    return FileFormatError(
        f"{file}: not written yet, the run stopped or is still running ({runs} runs saved "
        f"in {RESULTS_FILE}): garuda eval --resume {folder.name} finishes it"
    )


def read_report(file: Path) -> Report:
    """The report in ``file``; one line naming the file (and the field) when it is not
    written yet, not JSON, of a schema version this garuda does not read, or invalid."""
    if not file.exists():
        raise _unfinished(file) or FileFormatError(f"{file}: not found")
    data = parse_json(file)
    version = data.get(FIELD) if isinstance(data, dict) else None
    problem = schema_problem(version, SCHEMA_VERSION)
    if problem is not None:
        raise FileFormatError(f"{file}: field '{FIELD}': {problem}")
    try:
        return Report.model_validate(data)
    except ValidationError as error:
        raise FileFormatError(describe_validation_error(file, error)) from error
