"""``garuda eval --from-git``: mine the history of the current project into a repo suite."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import anyio

from garuda_evals.api import GarudaError, SuiteBuilder, UsageError
from garuda_evals_repo_git.cache import VerdictCache
from garuda_evals_repo_git.deps import VENV_NAMES, dependency_folders, tracked_files
from garuda_evals_repo_git.detect import detect, require_program, venv_python
from garuda_evals_repo_git.gitcmd import file_sizes, git_root, head, read_text
from garuda_evals_repo_git.gocache import base_cache, go_env
from garuda_evals_repo_git.history import History
from garuda_evals_repo_git.mining import PROGRESS_EVERY_S
from garuda_evals_repo_git.mutants import MAX_MUTANTS
from garuda_evals_repo_git.noleak import assert_no_leak
from garuda_evals_repo_git.prove import RUN_TIMEOUT_S, Candidate, Prover
from garuda_evals_repo_git.pycopies import refuse_package_copies
from garuda_evals_repo_git.pyenv import check_safe_path, probe_project, refuse_own_installs
from garuda_evals_repo_git.pyroots import package_roots
from garuda_evals_repo_git.rounds import Kept, Rounds
from garuda_evals_repo_git.rules import is_test_path
from garuda_evals_repo_git.runners import TestCommand, classify
from garuda_evals_repo_git.sandboxcheck import keep_sound
from garuda_evals_repo_git.suitefile import SCHEMA_VERSION, RepoSuiteFile, RepoTask, save_suite
from garuda_evals_repo_git.summary import print_summary
from garuda_evals_repo_git.tasks import ID_LENGTH, repo_task

PROBE_FILES = 1
DEFAULTS = {
    "commits": 200,
    "since": None,
    "max_tasks": 30,
    "test_command": None,
    "parallel": os.cpu_count() or 1,
    "min_strength": None,
    "mutants": MAX_MUTANTS,
}


class GitSuiteBuilder(SuiteBuilder):
    """Builds ``.garuda/evals/repo-suite.json`` from the project's recent commits."""

    name = "git"

    def __init__(
        self,
        commit_runs: int = 3,
        parent_runs: int = 3,
        progress_every_s: float = PROGRESS_EVERY_S,
        run_timeout_s: float = RUN_TIMEOUT_S,
    ) -> None:
        self.commit_runs = commit_runs
        self.parent_runs = parent_runs
        self.progress_every_s = progress_every_s
        self.run_timeout_s = run_timeout_s

    def build(self, options: Mapping[str, Any], *, cwd: Path, echo: Callable[[str], None]) -> int:
        """Mine, prove, save, and print the kept count and the skip reasons."""
        opts = {**DEFAULTS, **{k: v for k, v in options.items() if v is not None}}
        if opts["min_strength"] is not None and int(opts["mutants"]) == 0:
            raise UsageError(
                "--min-strength needs each task's strength, and --mutants 0 measures none: "
                "drop one of them"
            )
        root = git_root(cwd)
        sha = head(root)
        tree = tracked_files(root, sha)
        package_json = read_text(root, sha, "package.json")
        given = opts["test_command"]
        detected = None if given else detect(package_json, set(tree), venv_python(root))
        base = given or detected.command  # type: ignore[union-attr]
        command = classify(base, package_json)
        command.check([])  # refuses a runner whose check could not prove that tests ran
        require_program(command, root)
        deps = dependency_folders(root, tree)
        venvs = [d for d in deps if d in VENV_NAMES]
        probed = probe_project(root, sha, command, tree, venvs)
        refuse_own_installs(root, probed, venvs, "build the suite again")
        roots = package_roots(tree, lambda path: read_text(root, sha, path))
        refuse_package_copies(root, command, tree, roots, venvs, "build the suite again")
        check_safe_path(command, probed)
        command = replace(command, plugins=probed.plugins, roots=roots)
        if command.kind == "go":
            modcache = go_env("GOMODCACHE") or ""
            command = replace(command, modcache=modcache, gobase=str(base_cache()))
        source = "given" if detected is None else f"detected: {detected.source}"
        echo(f"Mining {root} at {sha[:12]} with '{base}' ({source}).")
        if command.kind == "pytest":
            named = ", ".join(command.plugins) or "none installed"
            echo(f"The check runs pytest without plugin autoload; its plugins: {named}.")
            where = ", ".join(command.roots) or "none found"
            echo(f"The code under test is imported from the task's folder: {where}.")
        echo(
            "The tests run on the host, with no sandbox: these are the project's own commits, "
            "not an agent's code. Your checkout, index and HEAD are not changed."
        )
        echo(
            f"Up to {opts['parallel']} proof(s), strength measure(s) and sandbox check(s) run "
            "at a time (--parallel; the default is the machine's cores)."
        )
        skipped: Counter[str] = Counter()
        history = History(root, command, deps, int(opts["commits"]), opts["since"], skipped)
        candidates = history.next()
        echo(f"{history.read} commits read, {len(candidates)} candidates after the file rules.")
        prover = Prover(
            root,
            command,
            _mining_env(),
            self.commit_runs,
            self.parent_runs,
            run_timeout_s=self.run_timeout_s,
        )
        if candidates:
            _probe(prover, sha, candidates, deps, echo)
        cache = VerdictCache(root)
        if cache.damaged:
            echo(f"note: {cache.path} was unreadable; every candidate is proved again")
        built: dict[str, RepoTask] = {}

        def settle(pairs: Kept) -> Kept:
            """The sandbox step on a round's kept tasks (their folders asserted leak-free)."""
            tasks = [repo_task(root, command, candidate, verdict) for candidate, verdict in pairs]
            for task in tasks:
                assert_no_leak(root, task, sha, deps)
            suite = RepoSuiteFile(
                version=SCHEMA_VERSION, root=str(root), head=sha, test_command=base, tasks=tasks
            )
            parallel = int(opts["parallel"])
            sound, dropped = keep_sound(root, suite, parallel, echo, cache, command.cache_key, deps)
            skipped.update(dropped)
            built.update({task.id: task for task in sound})
            return [pair for pair in pairs if pair[0].commit.sha[:ID_LENGTH] in built]

        def more() -> list[Candidate]:
            first = history.read + 1
            found = history.next()
            if history.read >= first:
                echo(
                    f"Reading further back: commits {first}-{history.read} of HEAD, "
                    f"{len(found)} more candidate(s) after the file rules."
                )
            return found

        rounds = Rounds(
            prover, candidates, cache, deps, opts, echo, self.progress_every_s, settle, more
        )
        try:
            kept, outcomes, first_failure = rounds.run(skipped)
        finally:
            cache.save()  # an interrupted build keeps the verdicts it reached
        if kept:
            tasks = [
                built[c.commit.sha[:ID_LENGTH]].model_copy(
                    update={"strength": v.strength, "mutants": v.mutants}
                )
                for c, v in kept
            ]
            if command.kind == "pytest":
                _echo_held_out(tasks, echo)
            echo(
                f"No leak: the folders of the {len(tasks)} task(s) hold no git object of their "
                "commit or a later one."
            )
            suite = RepoSuiteFile(
                version=SCHEMA_VERSION, root=str(root), head=sha, test_command=base, tasks=tasks
            )
            save_suite(root, suite)
        _echo_reach(history, int(opts["commits"]), echo)
        print_summary(
            echo,
            kept=len(kept),
            proved=len(outcomes),
            candidates=len(history.candidates),
            skipped=skipped,
            first_failure=first_failure,
        )
        return 0 if kept else 1


def _echo_reach(history: History, asked: int, echo: Callable[[str], None]) -> None:
    """How far back the build read: past ``--commits`` only to replace dropped tasks."""
    if history.oldest is None:
        return
    if history.oldest.parent is None:
        end = " (the start of history)"
    else:
        end = " (--since)" if history.ended and history.since else ""
    echo(
        f"History read: {history.read} commit(s) (--commits {asked}), back to "
        f"{history.oldest.sha[:12]} {history.oldest.subject[:60]}{end}."
    )


def _echo_held_out(tasks: list[RepoTask], echo: Callable[[str], None]) -> None:
    """One line: how many tasks hold tests out of the agent's view, and how many in all."""
    held = [len(task.held_out.ids) for task in tasks if task.held_out]
    echo(
        f"Held out: {len(held)} of {len(tasks)} task(s) hold {sum(held)} test(s) out of the "
        "agent's copy (drawn for this build); only the judge runs them, beside canaries."
    )


def _probe_files(
    candidates: list[Candidate], sizes: dict[str, int], command: TestCommand
) -> list[str]:
    """The smallest test file of HEAD among the candidates' (the quickest run that shows
    the command finds tests), else the smallest of HEAD's test files."""
    ours = {f for candidate in candidates for f in candidate.run_files if f in sizes}
    everything = command.runnable(sorted(p for p in sizes if is_test_path(p)))
    pool = sorted(ours) or everything
    return sorted(pool, key=lambda path: (sizes[path], path))[:PROBE_FILES]


def _probe(
    prover: Prover,
    sha: str,
    candidates: list[Candidate],
    deps: list[str],
    echo: Callable[[str], None],
) -> None:
    """Run the command once at HEAD on a small test file; no test found stops the build."""
    files = _probe_files(candidates, file_sizes(prover.root, sha), prover.command)
    if not files:
        return
    probe = anyio.run(prover.probe, sha, files, deps)
    echo(
        f"Probe at HEAD ({len(files)} test file(s): {', '.join(files)}): "
        f"{probe.found} test(s) found, {probe.passed} passed, exit code {probe.exit_code}, "
        f"{probe.seconds:.1f} s."
    )
    if probe.exit_code is None:
        echo(
            f"The probe timed out after {prover.run_timeout_s:g} s (a run's limit): a proof "
            "whose runs take as long is skipped as failing. Mining goes on."
        )
        return
    if probe.found == 0:
        echo("\n".join(f"  | {line}" for line in probe.tail.splitlines()))
        raise GarudaError(
            f"the test command found no test at HEAD ({prover.command.proof(files)!r} wrote no "
            "report of any test; its output is above): nothing was proved. Fix the set-up or "
            "give --test-command"
        )


def _mining_env() -> dict[str, str]:
    """The user's own environment (the project's commands run as the user would), with CI=1."""
    env = dict(os.environ)
    env["CI"] = "1"
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        env.pop(name, None)
    return env
