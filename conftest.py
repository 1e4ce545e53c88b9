"""Every test run checks that it left nothing of garuda's in the temporary folder.

With GARUDA_CHECK_TMP=1 (set by .ci/run), a session that leaves a new ``garuda-*`` entry
in the temporary folder fails, naming the entries.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

CHECK_VAR = "GARUDA_CHECK_TMP"
_before: set[Path] = set()


def _garuda_entries() -> set[Path]:
    return set(Path(tempfile.gettempdir()).glob("garuda-*"))


def pytest_sessionstart(session: pytest.Session) -> None:
    _before.update(_garuda_entries())


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if os.environ.get(CHECK_VAR) != "1":
        return
    left = sorted(str(path) for path in _garuda_entries() - _before)
    if left:
        print(f"\nthe tests left {len(left)} entries in the temporary folder: {left[:10]}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
