"""CI's temporary-folder check (the root conftest.py, GARUDA_CHECK_TMP=1): a leak of this
session is caught, in the test process or a child, and another run's entries are not blamed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TESTS = """
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def test_another_run_on_this_machine():
    # Stands for a run in another process: it writes to the machine's temporary folder.
    Path(os.environ["SHARED_TMP"], "garuda-judge-of-another-run").mkdir()


def test_this_session_may_leak():
    if os.environ.get("LEAK") == "1":
        tempfile.mkdtemp(prefix="garuda-judge-leaked-")
        child = "import tempfile; tempfile.mkdtemp(prefix='garuda-run-of-a-child-')"
        subprocess.run([sys.executable, "-c", child], check=True)
"""


def _pytest(folder: Path, shared: Path, leak: bool) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "GARUDA_CHECK_TMP": "1",
        "TMPDIR": str(shared),
        "SHARED_TMP": str(shared),
        "LEAK": "1" if leak else "0",
    }
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(folder)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    shutil.copy(ROOT / "conftest.py", folder / "conftest.py")
    (folder / "pytest.ini").write_text("[pytest]\n")
    (folder / "test_some.py").write_text(TESTS)
    return folder


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    """Stands for the machine's temporary folder, shared by every run."""
    folder = tmp_path / "shared"
    folder.mkdir()
    return folder


def test_another_runs_entries_are_not_blamed(project: Path, shared: Path) -> None:
    done = _pytest(project, shared, leak=False)
    assert done.returncode == 0, done.stdout
    assert "the tests left" not in done.stdout
    assert [path.name for path in shared.iterdir()] == ["garuda-judge-of-another-run"]


def test_a_leak_of_this_session_fails_it_naming_the_entries(project: Path, shared: Path) -> None:
    done = _pytest(project, shared, leak=True)
    assert done.returncode == 1, done.stdout
    assert "the tests left 2 entries in the temporary folder" in done.stdout
    assert "garuda-judge-leaked-" in done.stdout
    assert "garuda-run-of-a-child-" in done.stdout
    assert "another-run" not in done.stdout
    (kept,) = shared.glob("gt-*")
    names = sorted(path.name.rpartition("-")[0] for path in kept.glob("garuda-*"))
    assert names == ["garuda-judge-leaked", "garuda-run-of-a-child"]
