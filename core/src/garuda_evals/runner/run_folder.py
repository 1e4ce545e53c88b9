"""A saved run named by the user: one resolver for ``garuda runs``, ``report``, ``compare``,
``regrade`` and ``eval --resume``, so each accepts the same names.

A name is a run folder's path, its report.json (or another report file) by path, a folder
name under ``.garuda/evals``, or a run id as ``garuda runs`` lists it.
"""

from __future__ import annotations

from pathlib import Path

from garuda_evals.errors import UsageError
from garuda_evals.runner.journal import MANIFEST_FILE
from garuda_evals.runner.paths import evals_dir
from garuda_evals.runner.report_build import REPORT_FILE


def is_run_folder(folder: Path) -> bool:
    """A folder a run wrote: it holds a report.json or a run.json."""
    return folder.is_dir() and (
        (folder / REPORT_FILE).is_file() or (folder / MANIFEST_FILE).is_file()
    )


def _listed(cwd: Path, name: str, what: str) -> Path | None:
    """The folder whose run ``garuda runs`` lists as ``name``; refused when several do."""
    from garuda_evals.runner.listing import describe, run_folders

    found = [f for f in run_folders(evals_dir(cwd)) if describe(f).run_id == name]
    if len(found) > 1:
        folders = ", ".join(str(folder) for folder in found)
        raise UsageError(
            f"{what} {name}: {len(found)} run folders hold this run ({folders}): name one"
        )
    return found[0] if found else None


def find_run(cwd: Path, name: str, what: str) -> Path:
    """The run folder ``name`` means; one line naming ``what`` (the command or flag) and the
    name when there is none, or when the folder is not a run's."""
    given = Path(name)
    if given.is_file() and is_run_folder(given.parent):
        return given.parent
    if given.name in (REPORT_FILE, MANIFEST_FILE):
        given = given.parent  # a run's report.json that is not written yet
    for candidate in (given, evals_dir(cwd) / name):
        if candidate.is_dir():
            if not is_run_folder(candidate):
                raise UsageError(
                    f"{what} {name}: {candidate} is not a run folder "
                    f"(it holds no {REPORT_FILE} or {MANIFEST_FILE})"
                )
            return candidate
    listed = _listed(cwd, name, what)
    if listed is not None:
        return listed
    raise UsageError(f"{what} {name}: no such run (not a folder, nor a run id in {evals_dir(cwd)})")


def find_report(cwd: Path, name: str, what: str) -> Path:
    """The report file ``name`` means: the file itself when it names one, else its run
    folder's report.json (which may not be written yet: see ``saved_report``)."""
    given = Path(name)
    if given.is_file():
        return given
    return find_run(cwd, name, what) / REPORT_FILE
