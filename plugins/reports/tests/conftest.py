"""Fixtures of the reports plugin's tests: a saved run folder and a headless chromium."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from browser import Browser, chromium_path, open_browser
from sample import build_run

from garuda_evals.testing import skip_or_fail


@pytest.fixture(scope="session")
def sample_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A saved run whose agent wrote markup, pipes and control characters."""
    return build_run(tmp_path_factory.mktemp("sample"))


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's chromium, headless (skipped, or failed under GARUDA_REQUIRE_TOOLS, without it)."""
    executable = chromium_path()
    if executable is None:
        skip_or_fail("chromium", "install Debian's chromium package (apt-get install chromium)")
    assert executable is not None
    with open_browser(executable) as opened:
        yield opened
