"""Fixtures of the java plugin's tests: the suite, and the maven toolchain probed once."""

from __future__ import annotations

import anyio
import pytest

from garuda_evals.suites.folder import FolderSuite, load_folder_suite
from garuda_evals.testing import skip_or_fail
from garuda_evals.toolchains import ToolchainStatus, probe_toolchain
from garuda_evals_java.project import SUITE_ROOT
from garuda_evals_java.summary import maven_failure
from garuda_evals_java.toolchain import maven_toolchain


@pytest.fixture(scope="session")
def java_suite() -> FolderSuite:
    """The java suite as shipped."""
    return load_folder_suite(SUITE_ROOT)


@pytest.fixture(scope="session")
def maven_status() -> ToolchainStatus:
    """The offline probe of the maven toolchain, run once per session."""
    return anyio.run(probe_toolchain, maven_toolchain())


@pytest.fixture
def maven(maven_status: ToolchainStatus) -> ToolchainStatus:
    """Skip (or fail, where CI requires maven) when the toolchain is missing, with its hint."""
    if not maven_status.ok:
        found = ", ".join(f"{k} {v}" for k, v in maven_status.versions.items())
        said = maven_failure(maven_status.output_head)
        version = f"maven {maven_status.version or 'not found'}, {found or 'jdk not found'}"
        skip_or_fail("maven", f"{maven_status.hint} ({version}; probe: {said})")
    return maven_status
