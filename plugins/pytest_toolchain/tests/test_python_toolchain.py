"""The pytest toolchain: its probe passes here and fails, with the hint, without pytest."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from packaging.version import Version

from garuda_evals.environment import check_environment
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.runner.toolchain_check import check_toolchains
from garuda_evals.testing import skip_unless_required
from garuda_evals.toolchains.cache import ProbeCache, cache_file
from garuda_evals.toolchains.probe import prepare_toolchain, probe_toolchain, read_version_files
from garuda_evals_python.toolchain import PYTEST_MIN_VERSION, pytest_toolchain


def test_the_record_loads_the_toolchain(registry: PluginRegistry) -> None:
    toolchain = registry.collect("garuda_toolchains")["python"].record.load()
    assert toolchain.name == "pytest"
    assert toolchain.aliases == ("python",)
    assert toolchain.prepare_command is None
    assert "pip install" in toolchain.hint


def test_probe_passes_here_and_reports_versions() -> None:
    status = anyio.run(probe_toolchain, pytest_toolchain())
    assert status.ok, f"{status.hint}\n{status.output_head}"
    assert status.version is not None
    assert Version(status.version) >= Version(PYTEST_MIN_VERSION)
    assert Version(status.versions["python"]) >= Version("3.11")


def test_the_version_files_name_the_python3_on_path_and_pytests_metadata() -> None:
    """The probe cache skips the version reads only when the program ``python3`` resolves
    to is among these files: here (a real interpreter, no launcher) it is."""
    files = anyio.run(read_version_files, pytest_toolchain())
    assert files is not None
    python3 = shutil.which("python3", path=check_environment()["PATH"])
    assert python3 is not None and files[0] == os.path.realpath(python3)
    assert any(path.endswith(".dist-info/METADATA") and "pytest-" in path for path in files)


def test_a_remembered_probe_is_taken_without_reading_versions(registry: PluginRegistry) -> None:
    first = anyio.run(check_toolchains, registry, {"pytest"})["pytest"]
    toolchain = registry.collect("garuda_toolchains")["python"].record.load()
    cache = ProbeCache(cache_file())
    second = cache.lookup_unread(toolchain, check_environment())
    assert second is not None and first.cached is False
    assert (second.version, second.versions) == (first.version, first.versions)


def test_nothing_to_prepare() -> None:
    ok, message, status = anyio.run(prepare_toolchain, pytest_toolchain())
    assert ok and status.ok
    assert message == "pytest has nothing to prepare"


def test_probe_fails_with_the_hint_in_a_python_without_pytest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bare = tmp_path / "bare-venv"
    base_python = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base_python, "-m", "venv", "--without-pip", str(bare)], check=True)
    if subprocess.run([str(bare / "bin" / "python3"), "-c", "import pytest"]).returncode == 0:
        skip_unless_required(
            "python", "the base interpreter has pytest on its path; no bare python to probe"
        )
    monkeypatch.setenv("VIRTUAL_ENV", str(bare))
    status = anyio.run(probe_toolchain, pytest_toolchain())
    assert not status.ok
    assert status.hint == pytest_toolchain().hint
    assert "No module named pytest" in status.output_head


def _version_read(command: str, path: Path) -> subprocess.CompletedProcess[str]:
    env = {**check_environment(), "PYTHONPATH": str(path), "PYTHONPROFILEIMPORTTIME": "1"}
    return subprocess.run(
        ["bash", "-c", command], env=env, cwd=path, capture_output=True, text=True
    )


def _metadata_answer(path: Path) -> tuple[str, str]:
    """pytest's version and metadata folder as ``importlib.metadata`` finds them there."""
    script = (
        "from importlib.metadata import distribution as d; "
        'print(d("pytest").version); print(d("pytest")._path)'
    )
    env = {**check_environment(), "PYTHONPATH": str(path)}
    done = subprocess.run(
        ["python3", "-P", "-c", script], env=env, capture_output=True, text=True, check=True
    )
    version, folder = done.stdout.split()
    return version, folder


def test_the_version_reads_find_pytest_as_importlib_metadata_does_without_importing_it(
    tmp_path: Path,
) -> None:
    """A pytest's metadata first on sys.path (another distribution named like it beside it)
    is the one read, without importing ``importlib.metadata`` (most of a read's time)."""
    for name, version in (("pytest_cov-1.0", "1.0"), ("pytest-99.1", "99.1")):
        info = tmp_path / f"{name}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: x\nVersion: {version}\n\n")
    toolchain = pytest_toolchain()
    assert toolchain.version_command is not None and toolchain.version_files_command is not None
    version = _version_read(toolchain.version_command, tmp_path)
    files = _version_read(toolchain.version_files_command, tmp_path)
    assert _metadata_answer(tmp_path) == ("99.1", str(tmp_path / "pytest-99.1.dist-info"))
    assert version.stdout == "pytest 99.1\n"
    assert files.stdout.splitlines()[2:4] == [
        str(tmp_path / "pytest-99.1.dist-info"),
        str(tmp_path / "pytest-99.1.dist-info" / "METADATA"),
    ]
    for done in (version, files):
        assert done.returncode == 0 and "| importlib.metadata" not in done.stderr, done.stderr


def test_a_metadata_without_a_version_is_read_by_importlib_metadata(tmp_path: Path) -> None:
    """An egg-info file (no folder to read) leaves the answer to ``importlib.metadata``."""
    (tmp_path / "pytest-98.0.egg-info").write_text("Metadata-Version: 1.0\nVersion: 98.0\n\n")
    toolchain = pytest_toolchain()
    assert toolchain.version_command is not None
    version = _version_read(toolchain.version_command, tmp_path)
    assert _metadata_answer(tmp_path)[0] == "98.0"
    assert version.stdout == "pytest 98.0\n" and "| importlib.metadata" in version.stderr
