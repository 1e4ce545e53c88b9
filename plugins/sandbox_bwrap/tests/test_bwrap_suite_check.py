"""``garuda suite check`` under bwrap names a task whose check reads outside its folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from garuda_evals.testing import run_garuda, skip_or_fail
from garuda_evals_sandbox_bwrap import BwrapBackend

MINI = Path(__file__).resolve().parents[3] / "core" / "tests" / "suite_data" / "mini"


@pytest.fixture
def outside_reader(tmp_path: Path) -> Path:
    """The mini suite with a task whose test reads a file beside the suite, by absolute path."""
    if shutil.which("bwrap") is None or not BwrapBackend().availability().ok:
        skip_or_fail("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    suite = tmp_path / "mini"
    shutil.copytree(MINI, suite)
    data = tmp_path / "expected-sum.txt"
    data.write_text("5\n")
    test = suite / "add" / "files" / "tests" / "test_calc.py"
    test.write_text(
        "from pathlib import Path\n\nfrom calc import add\n\n\n"
        "def test_add():\n"
        f"    assert add(2, 3) == int(Path({str(data)!r}).read_text())\n"
    )
    return suite


def test_a_check_that_reads_outside_its_folder_is_named(outside_reader: Path) -> None:
    where = outside_reader.parent
    args = ("suite", "check", str(outside_reader), "--repeat", "1", "-t", "add")
    on_host = run_garuda(*args, "--executor", "host", cwd=where)
    assert on_host.returncode == 0, on_host.stdout + on_host.stderr
    sandboxed = run_garuda(*args, "--executor", "os", cwd=where)
    assert sandboxed.returncode == 2, sandboxed.stdout + sandboxed.stderr
    assert "- reads outside its folder: the solved check passes on the host" in sandboxed.stdout
