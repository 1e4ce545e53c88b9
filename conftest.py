"""Checks on every test run: nothing of garuda's left in the temporary folder, no silent skip.

With GARUDA_CHECK_TMP=1 (set by .ci/run), a session that leaves a new ``garuda-*`` entry
in the temporary folder fails, naming the entries.

Every test gets its own empty toolchain probe cache (``GARUDA_PROBE_CACHE``), so no test
trusts a probe another test (or the user) ran, and none writes to the user's cache.

With GARUDA_REQUIRE_TOOLS set (CI), a test that skips for a reason not on ``ALLOWED_SKIPS``
is reported as failed, with its reason (a file skipped at import, as a collection error): in
CI every test runs or says why it cannot.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

CHECK_VAR = "GARUDA_CHECK_TMP"
REQUIRE_VAR = "GARUDA_REQUIRE_TOOLS"
# The skips CI accepts: a part of the skip reason, and why that test cannot run in CI.
ALLOWED_SKIPS: dict[str, str] = {
    "Seatbelt (sandbox-exec) exists only on macOS": (
        "the real Seatbelt run needs macOS and CI runs on Linux; the profile it would "
        "apply is tested on every platform (test_seatbelt_profile.py)"
    ),
}
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


@pytest.fixture(autouse=True)
def _own_probe_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path_factory.mktemp("probe-cache")
    monkeypatch.setenv("GARUDA_PROBE_CACHE", str(folder / "probes.json"))


def skip_reason(report: pytest.TestReport) -> str:
    """The reason a skipped report gives (pytest keeps it as ``(path, line, reason)``)."""
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def _refuse_skip(report: pytest.TestReport | pytest.CollectReport, nodeid: str) -> None:
    """Under GARUDA_REQUIRE_TOOLS, turn a skip whose reason is not allowed into a failure."""
    if not report.skipped or hasattr(report, "wasxfail"):
        return
    if not os.environ.get(REQUIRE_VAR, "").strip():
        return
    reason = skip_reason(report)
    if any(allowed in reason for allowed in ALLOWED_SKIPS):
        return
    report.outcome = "failed"
    report.longrepr = (
        f"{nodeid} skipped ({reason}), but {REQUIRE_VAR} is set and this reason is "
        "not on ALLOWED_SKIPS in the root conftest.py"
    )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    """A test's skip (in the test or a fixture), checked against ``ALLOWED_SKIPS``."""
    outcome = yield
    _refuse_skip(outcome.get_result(), item.nodeid)


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):  # type: ignore[no-untyped-def]
    """A whole file's skip at import (``pytest.importorskip`` at module level, a
    ``pytest.skip(allow_module_level=True)``), checked against ``ALLOWED_SKIPS``."""
    outcome = yield
    _refuse_skip(outcome.get_result(), collector.nodeid)
