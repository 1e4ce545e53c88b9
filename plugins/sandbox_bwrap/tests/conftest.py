"""Shared, slow setup of the bwrap tests: one regular install per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from garuda_evals.testing import skip_or_fail
from garuda_evals_sandbox_bwrap.testing import RegularInstall, find_uv, install_regular

WORKSPACE_ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def regular_install(tmp_path_factory: pytest.TempPathFactory) -> RegularInstall:
    """This workspace installed non-editable in ``<tmp>/project/.venv`` (about 5 s)."""
    uv = find_uv()
    if uv is None or not (WORKSPACE_ROOT / "uv.lock").is_file():
        skip_or_fail("uv", "a regular install needs uv and this workspace's uv.lock")
    return install_regular(uv, WORKSPACE_ROOT, tmp_path_factory.mktemp("regular-install"))
