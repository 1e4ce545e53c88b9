"""The proof of one candidate: its tests fail at the parent and pass at the commit, every time."""

from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import anyio

from garuda_evals.api import run_in_group
from garuda_evals_repo_git.cache import Verdict
from garuda_evals_repo_git.deps import link_dependencies
from garuda_evals_repo_git.gitcmd import Commit, export_tree
from garuda_evals_repo_git.reports import PASSED, fail_to_pass, read_results
from garuda_evals_repo_git.runners import CANARIES, GO_JSON, REPORT, TestCommand

RUN_TIMEOUT_S = 300.0
OUTPUT_LIMIT = 256 * 1024
TAIL_LINES = 25
ALREADY_PASS = "the tests already pass at the parent"
FLAKY_PARENT = "the tests pass in some runs at the parent (flaky)"
FAIL_AT_COMMIT = "the tests fail at the commit"
FLAKY_COMMIT = "the tests fail in some runs at the commit (flaky)"
CHECK_FAILS = "the check command fails at the commit"
NO_EVIDENCE = "the runner reports no passing test at the commit"
NO_RUNNABLE = "no test file to run"


@dataclass
class Candidate:
    """A commit that passed the file rules, with the test files the task will add."""

    commit: Commit
    test_files: dict[str, str]
    deleted_tests: list[str]
    run_files: list[str]
    dependencies: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Stage:
    """Which run of its proof a candidate is in, and since when (``time.monotonic()``)."""

    label: str
    since: float


@dataclass(frozen=True)
class Probe:
    """One run of the command at HEAD: files given, tests found and passed, exit, time."""

    files: list[str]
    found: int
    passed: int
    exit_code: int | None
    seconds: float
    tail: str


@dataclass(frozen=True)
class Prover:
    """Runs the proofs of one build: the command, the environment and the repeat counts.

    ``stages`` (commit -> Stage) says which run each proof in flight is in, for progress lines.
    """

    root: Path
    command: TestCommand
    env: dict[str, str]
    commit_runs: int = 3
    parent_runs: int = 3
    stages: dict[str, Stage] = field(default_factory=dict)
    run_timeout_s: float = RUN_TIMEOUT_S

    def _stage(self, sha: str, label: str) -> None:
        self.stages[sha] = Stage(label, time.monotonic())

    async def probe(self, sha: str, files: list[str], dependencies: list[str]) -> Probe:
        """Run the scoped command once at ``sha`` on ``files`` and read what it reported."""
        with tempfile.TemporaryDirectory(prefix="garuda-mine-") as scratch:
            tree = Path(scratch) / "head"
            await anyio.to_thread.run_sync(export_tree, self.root, sha, tree)
            link_dependencies(self.root, tree, dependencies)
            report = Path(scratch) / "probe.report"
            started = time.monotonic()
            code, output = await self._run(self.command.proof(files), tree, report)
            results = read_results(self._report(tree, report), self.command.kind) or {}
        return Probe(
            files=files,
            found=len(results),
            passed=sum(1 for state in results.values() if state == PASSED),
            exit_code=code,
            seconds=time.monotonic() - started,
            tail=_tail(output),
        )

    async def _run(
        self, command: str, cwd: Path, report: Path, timeout_s: float | None = None
    ) -> tuple[int | None, str]:
        if self.command.report_dir is not None:
            shutil.rmtree(cwd / self.command.report_dir, ignore_errors=True)
        result = await run_in_group(
            [
                "/bin/bash",
                "-c",
                command.replace(REPORT, str(report))
                .replace(GO_JSON, str(report))
                .replace(CANARIES, ""),
            ],
            cwd=cwd,
            env=self.env,
            timeout_s=self.run_timeout_s if timeout_s is None else timeout_s,
            output_limit=OUTPUT_LIMIT,
        )
        return result.exit_code, result.output

    def _report(self, cwd: Path, report: Path) -> Path:
        """The report of a run in ``cwd``: ``{junit}``'s file, or the runner's folder."""
        folder = self.command.report_dir
        return cwd / folder if folder is not None else report

    async def run_once(
        self, command: str, cwd: Path, report: Path, timeout_s: float
    ) -> tuple[int | None, str]:
        """Run ``command`` once in ``cwd`` (``{junit}`` is ``report``): exit code and output."""
        return await self._run(command, cwd, report, timeout_s)

    async def tree(self, sha: str, target: Path, candidate: Candidate, with_tests: bool) -> None:
        """The tree of ``sha`` in ``target`` (the commit's test files written over it when
        ``with_tests``), with the dependency folders linked."""
        await anyio.to_thread.run_sync(export_tree, self.root, sha, target)
        if with_tests:
            for relative, content in candidate.test_files.items():
                path = target / relative
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(content, encoding="utf-8")
            for relative in candidate.deleted_tests:
                (target / relative).unlink(missing_ok=True)
        link_dependencies(self.root, target, candidate.dependencies)

    async def prove(self, candidate: Candidate) -> Verdict:
        """Parent (with the commit's tests) must fail each run; the commit must pass each run."""
        try:
            return await self._prove(candidate)
        finally:
            self.stages.pop(candidate.commit.sha, None)

    async def _prove(self, candidate: Candidate) -> Verdict:
        """Each run in the order that ends a failing proof soonest: one run per side, the
        commit's repeats and the check (one of the commit's runs), the parent's repeats.
        The repeats stop at their first failing test: only their exit code is read."""
        commit = candidate.commit
        if not candidate.run_files:
            return Verdict(reason=NO_RUNNABLE)
        proof = self.command.proof(candidate.run_files)
        repeat = self.command.proof(candidate.run_files, fail_fast=True)
        with tempfile.TemporaryDirectory(prefix="garuda-mine-") as scratch:
            base = Path(scratch)
            parent, tree = base / "parent", base / "commit"
            assert commit.parent is not None
            await self.tree(commit.parent, parent, candidate, with_tests=True)
            self._stage(commit.sha, f"parent run 1/{self.parent_runs}")
            code, _ = await self._run(proof, parent, base / "parent.report")
            if code == 0:
                return Verdict(reason=ALREADY_PASS)
            before = read_results(self._report(parent, base / "parent.report"), self.command.kind)
            await self.tree(commit.sha, tree, candidate, with_tests=False)
            self._stage(commit.sha, f"commit run 1/{self.commit_runs}")
            code, output = await self._run(proof, tree, base / "commit.report")
            if code != 0:
                return Verdict(reason=FAIL_AT_COMMIT, failure_tail=_tail(output))
            after = read_results(self._report(tree, base / "commit.report"), self.command.kind)
            check, _ = self.command.check(candidate.run_files)
            own_check = check.replace(f" {CANARIES}", "") != proof
            # The check runs the same tests at the commit: when it is a run of its own, it is
            # the commit's last run, after the repeats (a failure there is the check's).
            for run in range(2, self.commit_runs + 1 - own_check):
                self._stage(commit.sha, f"commit run {run}/{self.commit_runs}")
                code, output = await self._run(repeat, tree, base / f"commit-{run}.report")
                if code != 0:
                    return Verdict(reason=FLAKY_COMMIT, failure_tail=_tail(output))
            if own_check:
                self._stage(commit.sha, "the check's run")
                code, output = await self._run(check, tree, base / "check.report")
                if code != 0:
                    return Verdict(reason=CHECK_FAILS, failure_tail=_tail(output))
                report = self._report(tree, base / "check.report")
                after = read_results(report, self.command.kind) or after
            if after is None or PASSED not in after.values():
                return Verdict(reason=NO_EVIDENCE)
            for run in range(2, self.parent_runs + 1):
                self._stage(commit.sha, f"parent run {run}/{self.parent_runs}")
                code, _ = await self._run(repeat, parent, base / f"parent-{run}.report")
                if code == 0:
                    return Verdict(reason=FLAKY_PARENT)
            passed = sorted(name for name, state in after.items() if state == PASSED)
            return Verdict(fail_to_pass=fail_to_pass(before, after), passed_tests=passed)


def _tail(output: str) -> str:
    return "\n".join(output.strip().splitlines()[-TAIL_LINES:])
