"""The guides say what the code does: each block marked with a file name is that file, and
the out-of-tree install the toolchain guide describes works, suite check included."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import anyio
import pytest

from garuda_evals.testing import skip_or_fail

REPO = Path(__file__).resolve().parents[1]
GUIDES = REPO / "docs" / "guide"
MARKED = re.compile(r"<!-- file: (\S+) -->\n```\w*\n(.*?)```\n", re.DOTALL)


def marked_blocks(guide: Path) -> list[tuple[str, str]]:
    """``(path, text)`` of every code block preceded by ``<!-- file: PATH -->``."""
    return MARKED.findall(guide.read_text(encoding="utf-8"))


def test_the_toolchain_guide_shows_the_example_plugin_exactly() -> None:
    blocks = marked_blocks(GUIDES / "adding-a-toolchain.md")
    shown = {path for path, _ in blocks}
    assert {
        "examples/go/pyproject.toml",
        "examples/go/src/garuda_evals_go/toolchain.py",
        "examples/go/src/garuda_evals_go/check.py",
        "examples/go/src/garuda_evals_go/plugin.py",
        "examples/go/src/garuda_evals_go/suite.py",
        "examples/go/src/garuda_evals_go/suite_data/go/suite.toml",
    } <= shown
    stale = [path for path, text in blocks if (REPO / path).read_text(encoding="utf-8") != text]
    assert stale == [], f"the guide's copy differs from the file: {stale}"


def test_a_changed_file_is_caught(tmp_path: Path) -> None:
    """Control: the comparison fails when a block and its file differ by one character."""
    guide = tmp_path / "guide.md"
    text = (GUIDES / "adding-a-toolchain.md").read_text(encoding="utf-8")
    guide.write_text(text.replace('MIN_GO = "1.21"', 'MIN_GO = "1.22"', 1), encoding="utf-8")
    stale = [p for p, t in marked_blocks(guide) if (REPO / p).read_text(encoding="utf-8") != t]
    assert stale == ["examples/go/src/garuda_evals_go/toolchain.py"]


@pytest.fixture(scope="module")
def wheel_install(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """Core, the bwrap sandbox and garuda-evals-go from wheels, in a venv outside the repo."""
    if shutil.which("go") is None:
        skip_or_fail("go", "install Go 1.21+ so that `go` is on PATH")
    if shutil.which("bwrap") is None:
        skip_or_fail("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    from garuda_evals.toolchains import prepare_toolchain, probe_toolchain
    from garuda_evals_go.toolchain import go_toolchain
    from garuda_evals_sandbox_bwrap.testing import PACKAGES, find_uv, install_regular

    if not anyio.run(probe_toolchain, go_toolchain()).ok:
        prepared, output, _ = anyio.run(prepare_toolchain, go_toolchain())
        assert prepared, output
    uv = find_uv()
    if uv is None:
        skip_or_fail("uv", "a wheel install needs uv")
    base = tmp_path_factory.mktemp("wheel-install")
    return install_regular(uv, REPO, base, (*PACKAGES, "garuda-evals-go"))


def test_the_plugin_installed_from_its_wheel_is_sound_in_the_sandbox(wheel_install) -> None:  # type: ignore[no-untyped-def]
    garuda = str(wheel_install.venv / "bin" / "garuda")
    go = shutil.which("go")
    assert go is not None
    env = wheel_install.env()
    env["PATH"] = f"{Path(go).parent}:{env['PATH']}"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [garuda, *args],
            cwd=wheel_install.elsewhere,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )

    plugins = run("plugins")
    assert "garuda-evals-go 0.1.0" in plugins.stdout, plugins.stdout + plugins.stderr
    suite_data = wheel_install.site / "garuda_evals_go" / "suite_data" / "go"
    assert (suite_data / "suite.toml").is_file()
    checked = run(
        "suite", "check", "go", "--executor", "os", "--repeat", "1", "-t", "01-moving-average"
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "executor: bwrap" in checked.stderr
    assert checked.stdout.split()[:2] == ["01-moving-average", "sound"], checked.stdout
    assert "suite go: 1 task(s) sound (bwrap)" in checked.stdout
