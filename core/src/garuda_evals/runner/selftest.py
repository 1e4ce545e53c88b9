"""A suite's self-test: the oracle agent's repeated runs, stored per task version.

``garuda eval --agent oracle --repeat 3`` (3 or more) records, for each task it ran, whether
the reference solution passed every time (stable), sometimes (flaky) or never (broken), in
``.garuda/selftest/<suite>.json`` beside the runs. Later runs of the same task version show
that verdict; a changed task (another digest) shows none until the self-test runs again.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from pydantic import ValidationError

from garuda_evals.errors import FileFormatError, describe_validation_error
from garuda_evals.files import parse_json
from garuda_evals.models.base import Model
from garuda_evals.models.report import Report
from garuda_evals.models.task import Task
from garuda_evals.runner.paths import project_root

SELFTEST_DIR = Path(".garuda") / "selftest"
SCHEMA_VERSION = 1
MIN_REPEATS = 3
ORACLE = "oracle"


class SelfTestEntry(Model):
    """One task version's verdict and the runs it rests on."""

    version: str
    runs: int
    passes: int
    verdict: str
    run_id: str


class SelfTestFile(Model):
    """``.garuda/selftest/<suite>.json``."""

    schema_version: int = SCHEMA_VERSION
    tasks: dict[str, SelfTestEntry]


def task_version(task: Task) -> str:
    """A digest of everything that defines the task (not where its file lies)."""
    text = task.model_dump_json(exclude={"source"})
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def verdict(runs: int, passes: int) -> str:
    """``stable`` when every scored run passed, ``broken`` when none did, else ``flaky``."""
    if passes == runs:
        return "stable"
    return "broken" if passes == 0 else "flaky"


def selftest_file(cwd: Path, suite: str) -> Path:
    """Where the self-test of ``suite`` is stored for the project of ``cwd``."""
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", suite)
    return project_root(cwd) / SELFTEST_DIR / f"{safe}.json"


def load_selftest(path: Path) -> SelfTestFile:
    """The stored self-test (empty when there is none); a bad file names itself."""
    if not path.is_file():
        return SelfTestFile(tasks={})
    try:
        return SelfTestFile.model_validate(parse_json(path))
    except ValidationError as error:
        raise FileFormatError(describe_validation_error(path, error)) from error


def _record(report: Report, cwd: Path) -> None:
    for suite in dict.fromkeys(mean.suite for mean in report.tasks):
        path = selftest_file(cwd, suite)
        stored = load_selftest(path)
        for mean in report.tasks:
            scored = mean.runs - mean.errors
            if mean.suite != suite or scored == 0 or not mean.task_version:
                continue
            stored.tasks[mean.task] = SelfTestEntry(
                version=mean.task_version,
                runs=scored,
                passes=mean.passes,
                verdict=verdict(scored, mean.passes),
                run_id=report.run_id,
            )
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".json.tmp")
        partial.write_text(stored.model_dump_json(by_alias=True, indent=2) + "\n", "utf-8")
        partial.replace(path)


def is_selftest(report: Report) -> bool:
    """An oracle run, repeated 3 times or more, that was not interrupted nor is a regrade
    (which judges the reference solution of the task version it ran, not today's)."""
    return (
        report.agent.get("agent") == ORACLE
        and report.settings.repeat >= MIN_REPEATS
        and not report.interrupted
        and report.regrade_of is None
    )


def apply_selftest(report: Report, versions: dict[tuple[str, str], str], cwd: Path) -> None:
    """Set each task's version; record a self-test run; show stored verdicts that still apply."""
    for mean in report.tasks:
        mean.task_version = versions.get((mean.suite, mean.task), "")
    if is_selftest(report):
        _record(report, cwd)
    for suite in dict.fromkeys(mean.suite for mean in report.tasks):
        stored = load_selftest(selftest_file(cwd, suite))
        for mean in report.tasks:
            entry = stored.tasks.get(mean.task) if mean.suite == suite else None
            if entry is not None and mean.task_version and entry.version == mean.task_version:
                mean.self_test = entry.verdict
