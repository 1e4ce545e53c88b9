"""Which folders the backends hide, and which toolchain folders inside them they show."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import pytest

from garuda_evals.testing import skip_unless_required
from garuda_evals_sandbox.paths import hidden_paths, homes, rebinds, toolchain_candidates


def test_toolchains_inside_a_hidden_home_are_found_outermost_first(tmp_path: Path) -> None:
    home = tmp_path / "home"
    nvm = home / ".nvm" / "versions" / "node" / "v22"
    (nvm / "bin").mkdir(parents=True)
    (home / ".local" / "bin").mkdir(parents=True)
    (home / ".local" / "share" / "keyrings").mkdir(parents=True)
    (home / ".cargo" / "bin").mkdir(parents=True)
    (home / ".cargo" / "credentials.toml").write_text("token")
    jdk = home / "jdks" / "21"
    (jdk / "bin").mkdir(parents=True)
    env = {
        "HOME": str(home),
        "PATH": f"{nvm}/bin:{home}/.local/bin:{home}/.cargo/bin:/usr/bin",
        "JAVA_HOME": str(jdk),
    }
    hidden = homes(env)
    assert home in hidden
    shown = rebinds(toolchain_candidates(env, hidden), hidden)
    assert nvm in shown
    assert nvm / "bin" not in shown  # inside nvm, already shown
    assert home / ".local" / "bin" in shown
    assert home / ".local" not in shown
    assert home / ".cargo" / "bin" in shown
    assert home / ".cargo" not in shown
    assert jdk in shown
    assert all(path != home for path in shown)


def test_a_missing_or_root_home_is_not_hidden(tmp_path: Path) -> None:
    assert Path("/") not in homes({"HOME": "/"})
    assert tmp_path / "gone" not in homes({"HOME": str(tmp_path / "gone")})


def test_the_system_itself_is_never_hidden(tmp_path: Path) -> None:
    kept = hidden_paths(["/", "/usr", str(tmp_path)])
    assert kept == [tmp_path.resolve()]


def test_the_account_home_is_hidden_and_its_maven_repository_shown_whatever_home_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Java (so Maven) takes ``user.home`` from the password database, not from HOME."""
    account = Path(pwd.getpwuid(os.getuid()).pw_dir).resolve()
    if not account.is_dir() or account == Path("/"):
        skip_unless_required("home", "this account has no home folder to hide")
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))  # garuda's own HOME too, not only the command's
    env = {"HOME": str(home), "PATH": "/usr/bin"}
    hidden = homes(env)
    assert account in hidden and home in hidden
    assert account / ".m2" / "repository" in toolchain_candidates(env, hidden)
