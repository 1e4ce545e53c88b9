"""Evidence from Go's own ``go test -json`` event stream (no gotestsum, no network).

``go test -json`` turns everything the test binary prints into ``output`` events, so a
test that prints ``--- PASS`` lines or JSON of its own adds output, never a result. A
test's id is ``<package import path>/<TestName>``, and a subtest's ``.../TestName/sub``.
A package that failed outside any test (a build or vet failure, a crash in ``TestMain``)
is one failed case whose id is the package path; a test that started but never finished
(the binary exited under it) is a failed case. A package whose binary exited 0 before
running its tests (``os.Exit(0)`` in ``init``) reports no case at all, so a check that
expects its tests fails for want of evidence.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from garuda_evals.checks.base import CheckPlan, CheckRunner, Outcome, TestCase, TestEvidence
from garuda_evals.checks.junit import EVIDENCE_DIR, MESSAGE_CHARS, _remove, summarize
from garuda_evals.executors.base import CommandResult

PLACEHOLDER = "{gojson}"
UNFINISHED = "(the test started but never finished: the test binary exited under it)"
PACKAGE_FAILED = "(the package failed outside any test)"
BUILD_FAILED = "(the package did not build)"
RESULTS: dict[str, Outcome] = {"pass": "passed", "fail": "failed", "skip": "skipped"}
RANK: dict[Outcome, int] = {"passed": 0, "skipped": 1, "failed": 2, "error": 3}
FRAMING = ("=== RUN", "=== PAUSE", "=== CONT", "=== NAME", "--- PASS", "--- FAIL", "--- SKIP")


@dataclass
class _Case:
    """A test (or failed package) while the stream is read."""

    package: str
    outcome: Outcome | None = None
    output: list[str] = field(default_factory=list)


@dataclass
class _Stream:
    """Everything read from the stream so far, in first-seen order."""

    cases: dict[str, _Case] = field(default_factory=dict)
    package_output: dict[str, list[str]] = field(default_factory=dict)
    build_output: dict[str, list[str]] = field(default_factory=dict)
    failed_packages: dict[str, str] = field(default_factory=dict)
    events: int = 0


def _events(text: str) -> list[dict[str, Any]]:
    """The JSON objects with an ``Action`` among the lines of ``text``; other lines dropped."""
    found = []
    for line in text.splitlines():
        if not line.startswith("{"):
            continue
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and isinstance(event.get("Action"), str):
            found.append(event)
    return found


def _read(stream: _Stream, event: dict[str, Any]) -> None:
    """Fold one event into ``stream``."""
    action, package, test = event["Action"], event.get("Package"), event.get("Test")
    output = event.get("Output")
    stream.events += 1
    if action == "build-output" and isinstance(output, str):
        stream.build_output.setdefault(str(event.get("ImportPath", "")), []).append(output)
        return
    if not isinstance(package, str):
        return
    if not isinstance(test, str) or not test:
        if action == "output" and isinstance(output, str):
            stream.package_output.setdefault(package, []).append(output)
        elif action == "fail":
            stream.failed_packages[package] = str(event.get("FailedBuild") or "")
        return
    case = stream.cases.setdefault(f"{package}/{test}", _Case(package))
    if action == "output" and isinstance(output, str):
        case.output.append(output)
    elif action in RESULTS:
        outcome = RESULTS[action]
        if case.outcome is None or RANK[outcome] > RANK[case.outcome]:
            case.outcome = outcome


def _message(lines: list[str]) -> str:
    """The end of a test's output, its framing lines left out."""
    kept = [line for line in lines if not line.lstrip().startswith(FRAMING)]
    return "".join(kept).strip()[-MESSAGE_CHARS:]


def _package_cases(stream: _Stream) -> list[TestCase]:
    """One failed case per package that failed with none of its tests failing."""
    failing = {case.package for case in stream.cases.values() if case.outcome in (None, "failed")}
    found = []
    for package, failed_build in stream.failed_packages.items():
        if package in failing:
            continue
        lines = stream.build_output.get(failed_build, []) + stream.package_output.get(package, [])
        reason = BUILD_FAILED if failed_build else PACKAGE_FAILED
        message = f"{reason}\n{''.join(lines).strip()}"[-MESSAGE_CHARS:]
        found.append(TestCase(package, "failed", message))
    return found


def parse_go_test_json(text: str) -> TestEvidence:
    """Every test, subtest and failed package in ``go test -json`` output.

    Lines that are not JSON events (the go command's own messages on stderr) are skipped.
    No event at all gives ``tests_ran=None``: the check has no evidence.
    """
    stream = _Stream()
    for event in _events(text):
        _read(stream, event)
    if not stream.events:
        return TestEvidence(tests_ran=None, detail="no go test -json events were written")
    cases = [
        TestCase(case_id, case.outcome, _message(case.output))
        if case.outcome is not None
        else TestCase(case_id, "failed", f"{UNFINISHED}\n{_message(case.output)}".strip())
        for case_id, case in stream.cases.items()
    ]
    return summarize(cases + _package_cases(stream))


class GoTestCheckRunner(CheckRunner):
    """Reads ``go test -json``: from a fresh file at ``{gojson}``, else from the output.

    ``go test -json ./tests/... > {gojson}`` keeps the stream whole whatever the output
    limit; without the placeholder the check's captured output is parsed (stderr lines
    that are not events are skipped).
    """

    def __init__(self, name: str = "go-test") -> None:
        self.name = name

    def plan(self, command: str, workspace: Path) -> CheckPlan:
        """Remove stale evidence and fill ``{gojson}`` with a fresh, randomly named path."""
        _remove(workspace / EVIDENCE_DIR)
        if PLACEHOLDER not in command:
            return CheckPlan(command=command)
        report = workspace / EVIDENCE_DIR / f"{secrets.token_hex(8)}.json"
        report.parent.mkdir()
        return CheckPlan(
            command=command.replace(PLACEHOLDER, str(report)), evidence_paths=(report,)
        )

    def evidence(self, plan: CheckPlan, workspace: Path, result: CommandResult) -> TestEvidence:
        """Every case of the event stream written during the check."""
        if not plan.evidence_paths:
            if result.truncated:
                return TestEvidence(
                    tests_ran=None, detail="the go test -json output was cut at the output limit"
                )
            return parse_go_test_json(result.output)
        report = plan.evidence_paths[0]
        if not report.is_file() or report.is_symlink():
            return TestEvidence(tests_ran=None, detail="no go test -json report was written")
        return parse_go_test_json(report.read_text(encoding="utf-8", errors="replace"))

    def failure_summary(self, result: CommandResult) -> str:
        """The first failed test or package and the first line of its message."""
        evidence = parse_go_test_json(result.output)
        failed = next((case for case in evidence.cases if case.outcome == "failed"), None)
        if failed is None:
            return super().failure_summary(result)
        first = next((line for line in failed.message.splitlines() if line.strip()), "")
        return f"FAIL {failed.id}: {first.strip()}" if first else f"FAIL {failed.id}"
