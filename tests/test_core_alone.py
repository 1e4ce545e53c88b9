"""Core installed alone (no plugin): it runs, lists, and says what to install for what."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
MINI = REPO / "core" / "tests" / "suite_data" / "mini"


def _uv() -> str:
    found = shutil.which("uv") or str(Path(sys.executable).parent / "uv")
    if not Path(found).exists():
        pytest.fail("uv is a dev dependency of the workspace and must be installed")
    return found


@pytest.fixture(scope="module")
def core_only(tmp_path_factory: pytest.TempPathFactory) -> Path:
    venv = tmp_path_factory.mktemp("core-only") / "venv"
    uv = _uv()
    subprocess.run([uv, "venv", "-q", "--python", sys.executable, str(venv)], check=True)
    subprocess.run(
        [
            uv,
            "pip",
            "install",
            "-q",
            "--python",
            str(venv / "bin" / "python"),
            str(REPO / "core"),
            "pytest",
        ],
        check=True,
    )
    return venv / "bin" / "garuda"


def run(garuda: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(garuda), *args], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def test_plugins_lists_only_core_and_what_to_install(core_only: Path, tmp_path: Path) -> None:
    result = run(core_only, "plugins", cwd=tmp_path)
    assert result.returncode == 0
    assert "garuda-evals 0.1.0" in result.stdout
    for dist in (
        "garuda-evals-python",
        "garuda-evals-node",
        "garuda-evals-java",
        "garuda-evals-agent",
    ):
        assert f"  {dist}" in result.stdout.split("not installed:")[1]


def test_list_says_what_to_install(core_only: Path, tmp_path: Path) -> None:
    result = run(core_only, "eval", "--list", cwd=tmp_path)
    assert result.returncode == 0
    assert "python: not installed (install garuda-evals-python)" in result.stdout
    assert "basic, hard: not installed (install garuda-evals-node)" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-s", "python", "--agent", "oracle"], "unknown suite (install garuda-evals-python)"),
        (
            ["-s", str(MINI), "--agent", "oracle", "--executor", "os"],
            "install garuda-evals-sandbox-bwrap",
        ),
        (["-s", str(MINI), "-m", "anthropic/x"], "install garuda-evals-agent"),
        (["--from-git"], "--from-git needs a git suite builder (install garuda-evals-repo-git)"),
        (
            ["-s", str(MINI), "--agent", "oracle", "--backend", "ray"],
            "--backend ray: unknown (install garuda-evals-ray); choose one of: local",
        ),
        (
            ["--ray-address", "h:1"],
            "--ray-address needs the Ray backend (install garuda-evals-ray)",
        ),
    ],
)
def test_missing_plugins_are_named(
    core_only: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    result = run(core_only, "eval", *args, cwd=tmp_path)
    assert result.returncode == 1
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_folder_suite_runs_with_core_alone(core_only: Path, tmp_path: Path) -> None:
    result = run(core_only, "eval", "-s", str(MINI), "--agent", "oracle", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "commands run on the host" in result.stderr
    assert "2/2 scored runs passed (100%)" in result.stdout
