"""CI's skip guard (the root conftest.py): only allowed skips pass under GARUDA_REQUIRE_TOOLS."""

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


def _pytest(folder: Path, required: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GARUDA_REQUIRE_TOOLS",)}
    if required is not None:
        env["GARUDA_REQUIRE_TOOLS"] = required
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-rs", "-p", "no:cacheprovider", "-q", str(folder)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_some.py").write_text(TESTS)
    return tmp_path


def test_without_required_tools_skips_stay_skips(project: Path) -> None:
    done = _pytest(project, None)
    assert done.returncode == 0, done.stdout
    assert "1 passed, 3 skipped, 1 xfailed" in done.stdout
    assert (
        ": this tool is too old\nSKIPPED [1] test_some.py:22: a fixture found no tool"
        in done.stdout
    )


def test_in_ci_a_skip_off_the_allow_list_fails_naming_the_test(project: Path) -> None:
    done = _pytest(project, "bwrap")
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
    done = _pytest(tmp_path, None)
    assert done.returncode == 0, done.stdout
    assert "1 passed, 2 skipped" in done.stdout
    done = _pytest(tmp_path, "bwrap")
    assert done.returncode != 0, done.stdout
    assert "1 skipped, 1 error" in done.stdout
    assert "test_needs_module.py skipped (could not import 'no_such_module'" in done.stdout
    assert "SKIPPED [1] test_on_macos.py:3: Seatbelt (sandbox-exec) exists only on macOS" in (
        done.stdout
    )
