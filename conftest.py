"""Checks on every test run: nothing of garuda's left in the temporary folder, no silent skip.

With GARUDA_CHECK_TMP=1 (set by .ci/run), the session's temporary files go to a folder of
its own (TMPDIR, inherited by every process the tests start), and a session that leaves a
``garuda-*`` entry there fails, naming the entries. Another run on the same machine writes
elsewhere, so its entries are never blamed on this one; a file written outside TMPDIR (a
fixed ``/tmp`` path) is not seen.

Every test gets its own empty toolchain probe cache (``GARUDA_PROBE_CACHE``) and entry-point
cache (``GARUDA_ENTRY_POINT_CACHE``), so no test trusts a probe or a scan another test (or
the user) made, and none writes to the user's caches.

With GARUDA_REQUIRE_TOOLS set (CI), a test that skips for a reason not on ``ALLOWED_SKIPS``
is reported as failed, with its reason (a file skipped at import, as a collection error): in
CI every test runs or says why it cannot.
"""

from __future__ import annotations

import os
import shutil
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
# The folder of this session's temporary files, and the TMPDIR it replaced.
SESSION_TMP = pytest.StashKey[tuple[Path, str | None]]()
# Short: Ray's socket paths below a test's temporary folder have a length limit.
SESSION_TMP_PREFIX = "gt-"


def pytest_configure(config: pytest.Config) -> None:
    """Under GARUDA_CHECK_TMP=1, every temporary file of the session goes below one folder."""
    if os.environ.get(CHECK_VAR) != "1":
        return
    folder = Path(tempfile.mkdtemp(prefix=SESSION_TMP_PREFIX))
    config.stash[SESSION_TMP] = (folder, os.environ.get("TMPDIR"))
    os.environ["TMPDIR"] = str(folder)
    tempfile.tempdir = str(folder)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the session when it left a ``garuda-*`` entry in its temporary folder."""
    folder, _ = session.config.stash.get(SESSION_TMP, (None, None))
    if folder is None:
        return
    left = sorted(str(path) for path in folder.glob("garuda-*"))
    if left:
        print(f"\nthe tests left {len(left)} entries in the temporary folder: {left[:10]}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config: pytest.Config) -> None:
    """Give back the TMPDIR the session started with; remove the session's folder unless it
    holds a leak (kept for a look)."""
    if SESSION_TMP not in config.stash:
        return
    folder, saved = config.stash[SESSION_TMP]
    if not any(folder.glob("garuda-*")):
        shutil.rmtree(folder, ignore_errors=True)
    if saved is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = saved
    tempfile.tempdir = None


@pytest.fixture(autouse=True)
def _own_probe_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path_factory.mktemp("probe-cache")
    monkeypatch.setenv("GARUDA_PROBE_CACHE", str(folder / "probes.json"))
    monkeypatch.setenv("GARUDA_ENTRY_POINT_CACHE", str(folder / "entry-points.json"))


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
