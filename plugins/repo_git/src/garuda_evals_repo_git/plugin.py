"""Hooks of garuda-evals-repo-git: the ``git`` suite builder, the ``repo`` suite, its checks."""

from __future__ import annotations

from collections.abc import Iterator

from garuda_evals.api import (
    CheckRunnerRecord,
    Option,
    OptionsRecord,
    SuiteBuilderRecord,
    SuiteRecord,
    hookimpl,
)

OWNER = "repo-git"

JUNIT_RUNNERS = (
    ("repo-pytest", "pytest", "pytest"),
    ("repo-node-test", "node", "node --test"),
    ("repo-vitest", "vitest", "vitest"),
    ("repo-mocha", "mocha", "mocha --reporter xunit"),
    ("repo-unittest", "unittest", "python -m unittest (a result hook)"),
    ("repo-borp", "borp", "borp --reporter=junit"),
    ("repo-tap", "tap", "tap --reporter=junit"),
)


def _builder():  # type: ignore[no-untyped-def]
    from garuda_evals_repo_git.builder import GitSuiteBuilder

    return GitSuiteBuilder()


def _suite():  # type: ignore[no-untyped-def]
    from garuda_evals_repo_git.suite import load_repo_suite

    return load_repo_suite()


def _options_model():  # type: ignore[no-untyped-def]
    from garuda_evals_repo_git.options_model import RepoGitOptions

    return RepoGitOptions


def _jest():  # type: ignore[no-untyped-def]
    from garuda_evals_repo_git.checkrunners import RepoJestCheckRunner

    return RepoJestCheckRunner()


def _go():  # type: ignore[no-untyped-def]
    from garuda_evals_repo_git.checkrunners import RepoGoCheckRunner

    return RepoGoCheckRunner()


def _junit(kind: str):  # type: ignore[no-untyped-def]
    def load():  # type: ignore[no-untyped-def]
        from garuda_evals_repo_git.checkrunners import RepoJUnitCheckRunner

        return RepoJUnitCheckRunner(kind)

    return load


@hookimpl
def garuda_suite_builders() -> Iterator[SuiteBuilderRecord]:
    """``--from-git``: mine the current project's git history."""
    yield SuiteBuilderRecord(
        name="git",
        description="mine tasks from the project's recent commits",
        load=_builder,
        owner=OWNER,
        trigger="from_git",
    )


@hookimpl
def garuda_options() -> Iterator[OptionsRecord]:
    """``--from-git`` and the options of mining."""
    yield OptionsRecord(
        name=OWNER,
        description="the repo suite (garuda-evals-repo-git)",
        options=(
            Option(
                ("--from-git",),
                "build the repo suite from this project's git history",
                is_flag=True,
                default=False,
            ),
            Option(
                ("--commits",), "with --from-git: how many recent commits to read (200)", type=int
            ),
            Option(("--since",), "with --from-git: only commits since this date"),
            Option(
                ("--max-tasks",), "with --from-git: keep at most this many tasks (30)", type=int
            ),
            Option(("--test-command",), "with --from-git: the test command ({files})"),
            Option(
                ("--min-strength",),
                "with --from-git: keep only tasks whose tests reject at least this share (0-1) "
                "of the reference change's mutants",
                type=float,
            ),
            Option(
                ("--mutants",),
                "with --from-git: mutants per kept task for its strength (12; 0: not measured)",
                type=int,
            ),
        ),
        model=_options_model,
    )


@hookimpl
def garuda_suites() -> Iterator[SuiteRecord]:
    """``-s repo``: the suite saved by ``--from-git`` in the current project (not in ``all``)."""
    yield SuiteRecord(
        name="repo",
        description="tasks mined from this project's git history (build with --from-git)",
        load=_suite,
        in_all=False,
    )


@hookimpl
def garuda_check_runners() -> Iterator[CheckRunnerRecord]:
    """The repo checks: JUnit of pytest, ``node --test`` and vitest, Jest's JSON, ``go test
    -json``; canaries."""
    for name, kind, runner in JUNIT_RUNNERS:
        yield CheckRunnerRecord(
            name=name,
            description=f"{runner} writing JUnit XML to {{junit}}, with canary tests",
            load=_junit(kind),
        )
    yield CheckRunnerRecord(
        name="repo-go-test",
        description="go test -json into {gojson}, with canary tests",
        load=_go,
    )
    yield CheckRunnerRecord(
        name="repo-jest-json",
        description="Jest with --json --outputFile={junit}, with canary tests",
        load=_jest,
    )
