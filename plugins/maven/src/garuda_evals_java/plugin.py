"""Hooks of garuda-evals-java. They do no work: each record's ``load`` is called on use."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from garuda_evals.api import CheckRunnerRecord, SuiteRecord, ToolchainRecord, hookimpl

if TYPE_CHECKING:
    from garuda_evals.api import CheckRunner, Suite, Toolchain


def _suite() -> Suite:
    from garuda_evals.api import load_folder_suite
    from garuda_evals_java.project import SUITE_ROOT

    return load_folder_suite(SUITE_ROOT)


def _toolchain() -> Toolchain:
    from garuda_evals_java.toolchain import maven_toolchain

    return maven_toolchain()


def _surefire() -> CheckRunner:
    from garuda_evals_java.checks import SurefireCheckRunner

    return SurefireCheckRunner()


@hookimpl
def garuda_suites() -> Iterator[SuiteRecord]:
    """The java suite: five small Maven projects with JUnit 5."""
    yield SuiteRecord(
        name="java",
        description="five small Maven projects with JUnit 5 (fix, rename, implement)",
        load=_suite,
        requires=("maven",),
    )


@hookimpl
def garuda_toolchains() -> Iterator[ToolchainRecord]:
    """The maven toolchain, also named ``java`` (``garuda eval --prepare java``)."""
    yield ToolchainRecord(
        name="maven",
        description="Maven and a JDK 17+, checks run offline from ~/.m2",
        load=_toolchain,
        aliases=("java",),
    )


@hookimpl
def garuda_check_runners() -> Iterator[CheckRunnerRecord]:
    """``surefire``: evidence from Surefire's JUnit XML in target/surefire-reports."""
    yield CheckRunnerRecord(
        name="surefire",
        description="Maven Surefire; reads target/surefire-reports after a clean build",
        load=_surefire,
    )
