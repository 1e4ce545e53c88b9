"""Shared set-up of the go plugin's tests: Go, bwrap, and the shared caches filled once."""

from __future__ import annotations

import shutil

import anyio
import pytest

from garuda_evals.api import ExecutorBackend, Suite
from garuda_evals.testing import skip_or_fail
from garuda_evals.toolchains import ToolchainStatus, prepare_toolchain, probe_toolchain
from garuda_evals_go.suite import load_go_suite
from garuda_evals_go.toolchain import HINT, go_toolchain


@pytest.fixture(scope="session")
def go() -> ToolchainStatus:
    """The go toolchain, probed; prepared first (network, once) when the caches are empty."""
    if shutil.which("go") is None:
        skip_or_fail("go", HINT)
    status = anyio.run(probe_toolchain, go_toolchain())
    if not status.ok:
        prepared, output, status = anyio.run(prepare_toolchain, go_toolchain())
        assert prepared and status.ok, f"garuda eval --prepare go failed:\n{output}"
    return status


@pytest.fixture(scope="session")
def bwrap() -> ExecutorBackend:
    """The OS sandbox the suite must be sound under."""
    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    from garuda_evals_sandbox_bwrap import BwrapBackend

    backend = BwrapBackend()
    if not backend.availability().ok:
        skip_or_fail("bwrap", backend.availability().reason)
    return backend


@pytest.fixture(scope="session")
def go_suite() -> Suite:
    """The go suite as installed."""
    return load_go_suite()
