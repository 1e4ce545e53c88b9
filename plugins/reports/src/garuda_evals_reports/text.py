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


def agent_words(agent: dict[str, str]) -> str:
    """The report's agent: ``garuda (model=openai/gpt-4.1, max_steps=100)``, or ``oracle``."""
    rest = ", ".join(f"{key}={value}" for key, value in agent.items() if key != "agent")
    name = agent.get("agent", "?")
    return f"{name} ({rest})" if rest else name


def run_name(result: TaskResult, repeats: bool) -> str:
    """``suite/task`` or ``suite/task #2`` when the run repeats tasks."""
    return f"{result.suite}/{result.task}" + (f" #{result.repeat}" if repeats else "")


def run_file(recorded: str | None, run_dir: Path | None) -> Path | None:
    """A file a result names (transcript, change), read only from inside the run folder.

    Paths in report.json are absolute (transcripts) or relative to the run folder (changes);
    a saved run copied elsewhere still finds its files by name in its own folder. With the
    run folder known, a path that leads out of it (``..``, a symlink, another folder) is
    not read, so a report.json from elsewhere cannot pull local files into a page.
    """
    if not recorded:
        return None
    path = Path(recorded)
    candidates = [path] if path.is_absolute() else []
    if run_dir is not None:
        candidates += [run_dir / path, run_dir / path.name]
    root = run_dir.resolve() if run_dir is not None else None
    for candidate in candidates:
        if not candidate.is_file():
            continue
        if root is not None and not candidate.resolve().is_relative_to(root):
            continue
        return candidate
    return None
