"""CI's checks in the root conftest.py, each run on a small project of its own.

The skip guard: only allowed skips pass under GARUDA_REQUIRE_TOOLS. The temporary-folder
check (GARUDA_CHECK_TMP=1): a leak of this session is caught, in the test process or a
child, and another run's entries are not blamed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TESTS = """
import pytest


def test_runs():
    pass


def test_seatbelt():
    pytest.skip("Seatbelt (sandbox-exec) exists only on macOS")


def test_old_tool():
    pytest.skip("this tool is too old")


@pytest.fixture
def needs_tool():
    pytest.skip("a fixture found no tool")


def test_in_fixture(needs_tool):
    pass


@pytest.mark.xfail(reason="known")
def test_known_bug():
    assert False
"""


def _pytest(folder: Path, **env: str | None) -> subprocess.CompletedProcess[str]:
    """pytest in ``folder``; ``env`` sets variables (None removes one)."""
    variables = {**os.environ, **env}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-rs", "-p", "no:cacheprovider", "-q", str(folder)],
        cwd=folder,
        env={name: value for name, value in variables.items() if value is not None},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _project(folder: Path, tests: str) -> Path:
    """``folder`` with the root conftest.py and ``tests`` as its one test file."""
    folder.mkdir(exist_ok=True)
    shutil.copy(ROOT / "conftest.py", folder / "conftest.py")
    (folder / "pytest.ini").write_text("[pytest]\n")
    (folder / "test_some.py").write_text(tests)
    return folder


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return _project(tmp_path, TESTS)


def test_without_required_tools_skips_stay_skips(project: Path) -> None:
    done = _pytest(project, GARUDA_REQUIRE_TOOLS=None)
    assert done.returncode == 0, done.stdout
    assert "1 passed, 3 skipped, 1 xfailed" in done.stdout
    assert (
        ": this tool is too old\nSKIPPED [1] test_some.py:22: a fixture found no tool"
        in done.stdout
    )


def test_in_ci_a_skip_off_the_allow_list_fails_naming_the_test(project: Path) -> None:
    done = _pytest(project, GARUDA_REQUIRE_TOOLS="bwrap")
    assert done.returncode == 1, done.stdout
    assert "1 failed, 1 passed, 1 skipped, 1 xfailed, 1 error" in done.stdout
    assert "test_some.py::test_old_tool skipped (this tool is too old), but" in done.stdout
    assert "test_some.py::test_in_fixture skipped (a fixture found no tool)" in done.stdout
    assert "SKIPPED [1] test_some.py:10: Seatbelt (sandbox-exec) exists only on macOS" in (
        done.stdout
    )


def test_machine_conditions_and_missing_modules_fail_when_tools_are_required(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from garuda_evals.testing import import_or_skip, skip_unless_required

    monkeypatch.delenv("GARUDA_REQUIRE_TOOLS", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no seccomp filter"):
        skip_unless_required("bwrap", "no seccomp filter for sparc")
    with pytest.raises(pytest.skip.Exception, match="cannot import no_such_module"):
        import_or_skip("no_such_module", "bwrap")
    assert import_or_skip("json", "python").dumps(1) == "1"
    monkeypatch.setenv("GARUDA_REQUIRE_TOOLS", "bwrap")
    with pytest.raises(pytest.fail.Exception, match="GARUDA_REQUIRE_TOOLS is set"):
        skip_unless_required("node", "an older node")
    with pytest.raises(pytest.fail.Exception, match="bwrap is required here"):
        import_or_skip("no_such_module", "bwrap")


TMP_TESTS = """
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


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    """Stands for the machine's temporary folder, shared by every run."""
    folder = tmp_path / "shared"
    folder.mkdir()
    return folder


def _check_tmp(tmp_path: Path, shared: Path, leak: bool) -> subprocess.CompletedProcess[str]:
    folder = _project(tmp_path / "project", TMP_TESTS)
    flag = "1" if leak else "0"
    return _pytest(
        folder, GARUDA_CHECK_TMP="1", TMPDIR=str(shared), SHARED_TMP=str(shared), LEAK=flag
    )


def test_another_runs_entries_are_not_blamed(tmp_path: Path, shared: Path) -> None:
    done = _check_tmp(tmp_path, shared, leak=False)
    assert done.returncode == 0, done.stdout
    assert "the tests left" not in done.stdout
    assert [path.name for path in shared.iterdir()] == ["garuda-judge-of-another-run"]


def test_a_leak_of_this_session_fails_it_naming_the_entries(tmp_path: Path, shared: Path) -> None:
    done = _check_tmp(tmp_path, shared, leak=True)
    assert done.returncode == 1, done.stdout
    assert "the tests left 2 entries in the temporary folder" in done.stdout
    assert "garuda-judge-leaked-" in done.stdout
    assert "garuda-run-of-a-child-" in done.stdout
    assert "another-run" not in done.stdout
    (kept,) = shared.glob("gt-*")
    names = sorted(path.name.rpartition("-")[0] for path in kept.glob("garuda-*"))
    assert names == ["garuda-judge-leaked", "garuda-run-of-a-child"]


WHOLE_FILE_SKIPS = {
    "test_needs_module.py": 'import pytest\n\nmodule = pytest.importorskip("no_such_module")\n',
    "test_on_macos.py": (
        "import pytest\n\n"
        'pytest.skip("Seatbelt (sandbox-exec) exists only on macOS", allow_module_level=True)\n'
    ),
    "test_plain.py": "def test_runs():\n    pass\n",
}


def test_a_whole_file_skipped_at_import_fails_in_ci_unless_allowed(tmp_path: Path) -> None:
    shutil.copy(ROOT / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    for name, text in WHOLE_FILE_SKIPS.items():
        (tmp_path / name).write_text(text)
    done = _pytest(tmp_path, GARUDA_REQUIRE_TOOLS=None)
    assert done.returncode == 0, done.stdout
    assert "1 passed, 2 skipped" in done.stdout
    done = _pytest(tmp_path, GARUDA_REQUIRE_TOOLS="bwrap")
    assert done.returncode != 0, done.stdout
    assert "1 skipped, 1 error" in done.stdout
    assert "test_needs_module.py skipped (could not import 'no_such_module'" in done.stdout
    assert "SKIPPED [1] test_on_macos.py:3: Seatbelt (sandbox-exec) exists only on macOS" in (
        done.stdout
    )
