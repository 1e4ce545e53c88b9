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
import os
import re
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from garuda_evals.checks.base import (
    Canaries,
    CheckPlan,
    CheckRunner,
    Outcome,
    TestCase,
    TestEvidence,
)
from garuda_evals.checks.junit import EVIDENCE_DIR, MESSAGE_CHARS, _remove, summarize
from garuda_evals.checks.protected import is_protected
from garuda_evals.executors.base import CommandResult

if TYPE_CHECKING:
    from garuda_evals.models.task import Task

PLACEHOLDER = "{gojson}"
UNFINISHED = "(the test started but never finished: the test binary exited under it)"
PACKAGE_FAILED = "(the package failed outside any test)"
BUILD_FAILED = "(the package did not build)"
RESULTS: dict[str, Outcome] = {"pass": "passed", "fail": "failed", "skip": "skipped"}
RANK: dict[Outcome, int] = {"passed": 0, "skipped": 1, "failed": 2, "error": 3}
FRAMING = ("=== RUN", "=== PAUSE", "=== CONT", "=== NAME", "--- PASS", "--- FAIL", "--- SKIP")
PACKAGE_CLAUSE = re.compile(r"^package\s+(\w+)", re.MULTILINE)
MODULE_CLAUSE = re.compile(r"^module\s+(\S+)", re.MULTILINE)
TEST_NAME = re.compile(r"^func\s+(Test\w*)\s*\(", re.MULTILINE)
SKIPPED_DIRS = frozenset({"vendor", "testdata", ".git", ".gocache", EVIDENCE_DIR})
CANARY_WORDS = (
    "Boundaries",
    "Defaults",
    "EdgeCases",
    "EmptyInput",
    "Invariants",
    "Ordering",
    "Regression",
    "RoundTrip",
    "ZeroValue",
)
CANARY_FILES = ("helpers", "regression", "edge", "invariants", "extra", "more")
VENDOR = "vendor"
"""With ``vendor/modules.txt`` beside go.mod, go builds every dependency from ``vendor/``."""


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
        except (ValueError, RecursionError):  # code under test may write a line nested deep
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


@dataclass(frozen=True)
class GoCanaries:
    """Where the canary file goes in a Go module, and what go test will call its tests."""

    relative: str
    text: str
    must_fail: str
    must_pass: str
    package: str


def _test_folders(workspace: Path, protected: list[str]) -> Counter[str]:
    """Protected folders holding ``_test.go`` files, by how many they hold."""
    found: Counter[str] = Counter()
    for path in workspace.rglob("*_test.go"):
        relative = path.relative_to(workspace).as_posix()
        if SKIPPED_DIRS & set(relative.split("/")[:-1]) or path.is_symlink():
            continue
        if is_protected(relative, protected):
            found[relative.rpartition("/")[0]] += 1
    return found


def _free_file_name(folder: Path) -> str:
    """A ``<word>_test.go`` name no file in ``folder`` has: the canaries never replace a test.

    A word of ``CANARY_FILES`` when one is free, else one with a number added.
    """
    random = secrets.SystemRandom()
    names = [f"{word}_test.go" for word in CANARY_FILES]
    while True:
        free = [name for name in names if not os.path.lexists(folder / name)]
        if free:
            return random.choice(free)
        names = [f"{random.choice(CANARY_FILES)}{random.randrange(2, 100)}_test.go"]


def plan_go_canaries(workspace: Path, protected: list[str], nonce: str) -> GoCanaries | None:
    """A must-fail and a must-pass test in a new ``_test.go`` beside most of the task's tests.

    None when the module has no ``go.mod`` or no protected test folder.
    """
    go_mod = workspace / "go.mod"
    module = MODULE_CLAUSE.search(go_mod.read_text(errors="replace")) if go_mod.is_file() else None
    folders = _test_folders(workspace, protected)
    if module is None or not folders:
        return None
    folder = folders.most_common(1)[0][0]
    siblings = sorted((workspace / folder).glob("*_test.go"))
    texts = [path.read_text(errors="replace") for path in siblings]
    clause = next((m.group(1) for m in map(PACKAGE_CLAUSE.search, texts) if m), None)
    if clause is None:
        return None
    taken = {name for text in texts for name in TEST_NAME.findall(text)}
    words = [word for word in CANARY_WORDS if f"Test{word}" not in taken]
    failing, passing = (f"Test{word}" for word in secrets.SystemRandom().sample(words, 2))
    name = _free_file_name(workspace / folder)
    relative = f"{folder}/{name}" if folder else name
    text = (
        f'package {clause}\n\nimport "testing"\n\n'
        f'func {failing}(t *testing.T) {{\n\tt.Fatal("{nonce}")\n}}\n\n'
        f"func {passing}(t *testing.T) {{}}\n"
    )
    package = f"{module.group(1)}/{folder}" if folder else module.group(1)
    return GoCanaries(relative, text, f"{package}/{failing}", f"{package}/{passing}", package)


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
        self._planted: dict[Path, tuple[GoCanaries, str]] = {}

    def canaries(self, task: Task, workspace: Path, nonce: str) -> Canaries | None:
        """A must-fail and a must-pass test in a new file in the folder of most task tests.

        Code that ends the test binary early, or prints framing lines of its own, loses
        the must-fail canary (reported missing or passed): the run fails as tampered.
        """
        planned = plan_go_canaries(workspace, list(task.protected), nonce)
        if planned is None:
            return None
        self._planted[workspace] = (planned, nonce)
        return Canaries(
            files={planned.relative: planned.text},
            must_fail=planned.must_fail,
            must_pass=planned.must_pass,
        )

    def forget(self, workspace: Path) -> None:
        """Drop the canaries planted in ``workspace`` when ``evidence`` did not read them."""
        self._planted.pop(workspace, None)

    def refusals(self, task: Task, workspace: Path, changed: Sequence[str]) -> list[str]:
        """A changed file under ``vendor/``: go would build an import (the tests' assertion
        library among them) from the agent's copy instead of the module it names."""
        return [
            f"{path} is under vendor/, which decides the code an import builds from"
            for path in changed
            if VENDOR in path.split("/")[:-1]
        ]

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
        """Every case of the event stream written during the check.

        When the canaries' package did not build (the go command's own event, which no
        test code can print), the canaries are reported as planted: the run then fails for
        the build failure, not as tampering.
        """
        evidence = self._read(plan, result)
        planted = self._planted.pop(workspace, None)
        if planted is None or evidence.tests_ran is None:
            return evidence
        canaries, nonce = planted
        unbuilt = any(
            case.id == canaries.package and case.message.startswith(BUILD_FAILED)
            for case in evidence.cases
        )
        if not unbuilt:
            return evidence
        stand_ins = (
            TestCase(canaries.must_fail, "failed", f"{BUILD_FAILED} {nonce}"),
            TestCase(canaries.must_pass, "passed"),
        )
        return summarize([*evidence.cases, *stand_ins])

    def _read(self, plan: CheckPlan, result: CommandResult) -> TestEvidence:
        """The stream from the ``{gojson}`` file, or from the output without one."""
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
