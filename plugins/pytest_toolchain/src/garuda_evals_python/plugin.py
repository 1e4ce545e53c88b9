"""Hooks of garuda-evals-python: the python suite, the pytest toolchain, the pytest check runner.

Hooks do no work: every record's ``load`` imports and builds its thing when it is used.
"""

from __future__ import annotations

from collections.abc import Iterator

from garuda_evals.api import CheckRunnerRecord, SuiteRecord, ToolchainRecord, hookimpl


def _suite():  # type: ignore[no-untyped-def]
    from garuda_evals_python.suite import load_python_suite

    return load_python_suite()


def _toolchain():  # type: ignore[no-untyped-def]
    from garuda_evals_python.toolchain import pytest_toolchain

    return pytest_toolchain()


def _check_runner():  # type: ignore[no-untyped-def]
    from garuda_evals_python.runner import PytestCheckRunner

    return PytestCheckRunner()


@hookimpl
def garuda_suites() -> Iterator[SuiteRecord]:
    """The python suite: five small pytest projects in src layout."""
    yield SuiteRecord(
        name="python",
        description="five small pytest projects in src layout (bugs, a rename, a parser)",
        load=_suite,
        requires=("pytest",),
    )


@hookimpl
def garuda_toolchains() -> Iterator[ToolchainRecord]:
    """The pytest toolchain, also named ``python``."""
    yield ToolchainRecord(
        name="pytest",
        description="python3 (3.11+) with pytest (7+)",
        load=_toolchain,
        aliases=("python",),
    )


@hookimpl
def garuda_check_runners() -> Iterator[CheckRunnerRecord]:
    """pytest writing JUnit XML to ``{junit}``, with refusals and canaries."""
    yield CheckRunnerRecord(
        name="pytest",
        description="pytest with --junitxml={junit}; refuses shadowing modules, adds canaries",
        load=_check_runner,
    )
