"""Shared helpers: safe text for XML and Markdown, run names, where a run's files are."""

from __future__ import annotations

import re
from pathlib import Path

from garuda_evals.api import TaskResult

# Characters XML 1.0 cannot carry at all (control characters other than tab, LF, CR;
# lone surrogates; U+FFFE/U+FFFF). An agent's or a test's output may contain any of them.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def xml_safe(text: str) -> str:
    """Text with terminal colour codes removed and characters XML cannot hold shown as ``?``."""
    return _NOT_XML.sub("?", _ANSI.sub("", text))


def run_name(result: TaskResult, repeats: bool) -> str:
    """``suite/task`` or ``suite/task #2`` when the run repeats tasks."""
    return f"{result.suite}/{result.task}" + (f" #{result.repeat}" if repeats else "")


def run_file(recorded: str | None, run_dir: Path | None) -> Path | None:
    """A file a result names (transcript, change), found in the run folder when it moved.

    Paths in report.json are absolute (transcripts) or relative to the run folder (changes);
    a saved run copied elsewhere still finds its files by name in its own folder.
    """
    if not recorded:
        return None
    path = Path(recorded)
    candidates = [path] if path.is_absolute() else []
    if run_dir is not None:
        candidates += [run_dir / path, run_dir / path.name]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    return None
