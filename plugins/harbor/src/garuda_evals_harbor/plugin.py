"""Hooks of garuda-evals-harbor: the ``harbor`` suite builder (``garuda import harbor``) and
the ``harbor-reward`` check runner.

Hooks do no work: every record's ``load`` imports and builds its thing when it is used.
"""

from __future__ import annotations

from collections.abc import Iterator

from garuda_evals.api import CheckRunnerRecord, SuiteBuilderRecord, hookimpl


def _builder():  # type: ignore[no-untyped-def]
    from garuda_evals_harbor.builder import HarborBuilder

    return HarborBuilder()


def _import_command():  # type: ignore[no-untyped-def]
    from garuda_evals_harbor.cli import harbor_command

    return harbor_command


def _runner():  # type: ignore[no-untyped-def]
    from garuda_evals_harbor.checkrunner import RewardCheckRunner

    return RewardCheckRunner()


@hookimpl
def garuda_suite_builders() -> Iterator[SuiteBuilderRecord]:
    """``garuda import harbor``; a folder holding ``harbor-suite.json`` is its saved suite."""
    yield SuiteBuilderRecord(
        name="harbor",
        description="Harbor / Terminal-Bench task folders, run on this host's toolchains",
        load=_builder,
        command=_import_command,
        saved="harbor-suite.json",
    )


@hookimpl
def garuda_check_runners() -> Iterator[CheckRunnerRecord]:
    """The verifier of imported Harbor tasks."""
    yield CheckRunnerRecord(
        name="harbor-reward",
        description="Harbor's tests/test.sh and the reward it writes (reward.txt, reward.json)",
        load=_runner,
    )
