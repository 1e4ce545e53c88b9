"""The ``node-test`` check runner: JUnit XML from ``node --test``, read with node's quirks.

``--test-reporter=junit --test-reporter-destination={junit}`` in a check command runs
this plugin's own JUnit reporter (``reporter.mjs``, copied into the fresh evidence folder
by ``plan``, read-only during the check): node's JUnit XML names every test
``test::<name>``, so the same name in two files is one id; here a test's id is
``<file>::<describe> > <name>``. The reporter also prints the report's SHA-256 on node's
output, which the harness captures as it is written; a report that differs from it, or
more than one such line, means a process changed the report after node: the report is
then replaced by one error case.

``node --test`` lists a file that reported no test as one passing test case named by its
path (absolute on node 20, as given on the command line on node 22+). That happens for a
helper module in ``test/`` (no tests in it: harmless) and for a test file that ended early,
for example by ``process.exit(0)`` at import. Counted as a test, an early exit would pass;
here a file-level case of a file that uses ``node:test`` is a failure, and one of a plain
helper is not counted at all.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from importlib.resources import files
from pathlib import Path

from garuda_evals.api import (
    Canaries,
    CheckPlan,
    CommandResult,
    HeldOutRun,
    JUnitCheckRunner,
    Task,
    TestCase,
    TestEvidence,
    summarize,
)
from garuda_evals_node.canaries import make_canaries
from garuda_evals_node.held_out import folded_run, held_out_run

NAME = "node-test"
SCRIPT = re.compile(r"\.(?:c|m)?[jt]sx?$")
USES_NODE_TEST = re.compile(r"""['"]node:test['"]""")
ENDED_EARLY = "(the file ended before reporting any test)"
DIGEST = re.compile(r"garuda-node-report ([0-9a-f]{64})")
REWRITTEN = "(node's JUnit report was changed after node wrote it)"
JUNIT_FLAGS = "--test-reporter=junit --test-reporter-destination={junit}"
REPORTER = "reporter.mjs"
# Files that change how node loads code or what its runner does, whatever the suite protects.
REFUSED_NAMES = {
    "package.json": "decides how node loads the code (type, imports, exports)",
    ".npmrc": "configures npm and node's loader",
    "node.config.json": "configures node's test runner",
}
REFUSED_SUFFIXES = {".node": "a native addon runs outside JavaScript"}


@dataclass
class FileLevelCases:
    """File-level test cases: test files that ended early, and plain helper modules."""

    ended_early: list[str] = field(default_factory=list)
    helpers: list[str] = field(default_factory=list)


def _script(name: str, workspace: Path) -> Path | None:
    if not SCRIPT.search(name):
        return None
    path = Path(name) if name.startswith("/") else workspace / name
    return path if path.is_file() and not path.is_symlink() else None


def _listing(workspace: Path, folder: str) -> list[str]:
    """The paths (relative to ``workspace``) of the entries in ``folder``, if it exists."""
    directory = workspace / folder
    if directory.is_symlink() or not directory.is_dir():
        return []
    return [posixpath.join(folder, entry.name) for entry in directory.iterdir()]


def _case_name(case_id: str) -> str:
    return case_id.split("::", 1)[-1]


def sort_file_level(cases: Sequence[TestCase], workspace: Path) -> FileLevelCases:
    """Sort the cases that stand for a whole file into early exits and helpers."""
    found = FileLevelCases()
    for case in cases:
        script = _script(_case_name(case.id), workspace)
        if script is None:
            continue
        text = script.read_text(encoding="utf-8", errors="replace")
        (found.ended_early if USES_NODE_TEST.search(text) else found.helpers).append(case.id)
    return found


def report_problem(paths: tuple[Path, ...], output: str) -> str | None:
    """Why the report is not the one node's reporter printed the digest of, or None."""
    digests = DIGEST.findall(output)
    if len(digests) != 1:
        return f"node's output holds {len(digests)} report digests instead of one"
    report = next((path for path in paths if path.is_file() and not path.is_symlink()), None)
    if report is None:
        return "the report is missing"
    if hashlib.sha256(report.read_bytes()).hexdigest() != digests[0]:
        return "the report differs from the one node's reporter wrote"
    return None


def _reporter_path(plan_command: str, workspace: Path) -> tuple[str, Path | None]:
    """Swap node's JUnit reporter for ours, copied next to the report in the evidence folder."""
    if JUNIT_FLAGS not in plan_command:
        return plan_command, None
    target = workspace / ".garuda-check" / REPORTER
    ours = f"--test-reporter={target} --test-reporter-destination={{junit}}"
    return plan_command.replace(JUNIT_FLAGS, ours), target


class NodeTestCheckRunner(JUnitCheckRunner):
    """``{junit}`` is a fresh report path; a test file that reported no test is a failure."""

    def __init__(self) -> None:
        super().__init__(NAME)
        self._folded: dict[Path, HeldOutRun] = {}

    def plan(self, command: str, workspace: Path) -> CheckPlan:
        """Fill ``{junit}``; node's JUnit reporter becomes ours (ids unique per file)."""
        command, reporter = _reporter_path(command, workspace)
        plan = super().plan(command, workspace)
        if reporter is None:
            return plan
        source = files("garuda_evals_node") / REPORTER
        with source.open("rb") as src, reporter.open("wb") as dst:
            shutil.copyfileobj(src, dst)
        return replace(plan, locked=(*plan.locked, reporter))

    def evidence(self, plan: CheckPlan, workspace: Path, result: CommandResult) -> TestEvidence:
        """The report's cases; an early exit is a failed case, a helper module no case."""
        base = super().evidence(plan, workspace, result)
        if base.tests_ran is None:
            return base
        if f"--test-reporter={workspace / '.garuda-check' / REPORTER}" in plan.command:
            problem = report_problem(plan.evidence_paths, result.output)
            if problem:
                case = TestCase(REWRITTEN, "error", problem)
                return TestEvidence(tests_ran=1, failed=1, detail=problem, cases=(case,))
        sorted_cases = sort_file_level(base.cases, workspace)
        if not sorted_cases.ended_early and not sorted_cases.helpers:
            return base
        early = set(sorted_cases.ended_early)
        cases = [
            replace(
                case,
                id=f"{case.id.split('::', 1)[0]}::{ENDED_EARLY}",
                outcome="failed",
                message=ENDED_EARLY,
            )
            if case.id in early
            else case
            for case in base.cases
            if case.id not in sorted_cases.helpers
        ]
        evidence = summarize(cases)
        if sorted_cases.ended_early:
            shown = ", ".join(Path(_case_name(i)).name for i in sorted_cases.ended_early[:3])
            detail = f"{evidence.detail}; test file(s) ended before reporting any test: {shown}"
            evidence = replace(evidence, detail=detail)
        return evidence

    def canaries(self, task: Task, workspace: Path, nonce: str) -> Canaries | None:
        """A must-fail and a must-pass test in a new file beside the task's own tests.

        Only for checks that run ``node --test`` with the JUnit reporter: the file lands in
        the folder that holds most of the task's test files, with a plausible name, and
        loads the modules those tests import, so tampering at import reaches it too.
        """
        if "--test" not in task.check.command or JUNIT_FLAGS not in task.check.command:
            return None
        made = make_canaries(task, workspace, nonce)
        if made is None or task.held_out is None:
            return made
        ((path, text),) = made.files.items()
        own = {made.must_fail.split("::", 1)[1], made.must_pass.split("::", 1)[1]}
        folded = None
        if text.startswith("import "):  # an ES module: the held-out tests can go inside
            folded = folded_run(task.held_out.tests, task.held_out.canaries, path, own)
        if folded is None:
            return made
        self._folded[workspace] = folded[1]
        return replace(made, files={path: text + "\n" + folded[0]})

    def held_out(self, task: Task, workspace: Path, nonce: str) -> HeldOutRun | None:
        """The held-out tests and their canaries, renamed at random (``held_out.py``): in
        the runner's canary file when ``canaries`` could put them there (node then starts
        no process more for them), otherwise in as few files of their own as hold them, in
        the folders their paths name. The check command must run them where it runs the
        task's tests (``test/**/*.test.js``)."""
        if task.held_out is None:
            return None
        folded = self._folded.pop(workspace, None)
        if folded is not None:
            return folded
        sources = {**task.held_out.tests, **task.held_out.canaries}
        folders = {posixpath.dirname(path) for path in sources}
        taken = {*task.files, *(p for folder in folders for p in _listing(workspace, folder))}
        return held_out_run(task.held_out.tests, task.held_out.canaries, taken)

    def forget(self, workspace: Path) -> None:
        """Drop the held-out tests ``canaries`` put in ``workspace``'s canary file when
        ``held_out`` did not take them."""
        self._folded.pop(workspace, None)

    def refusals(self, task: Task, workspace: Path, changed: Sequence[str]) -> list[str]:
        """Changed files that reconfigure node or its runner, or native addons."""
        refused = []
        for relative in changed:
            name = relative.rsplit("/", 1)[-1]
            why = REFUSED_NAMES.get(name) or next(
                (why for suffix, why in REFUSED_SUFFIXES.items() if name.endswith(suffix)), None
            )
            if why:
                refused.append(f"{relative}: {why}")
        return refused
