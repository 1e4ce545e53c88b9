"""``garuda eval --help`` names what is installed (suites, toolchains, backends), and only
``--help`` asks the plugins for them: ``garuda --help`` and a run's CLI build call none of
those hooks."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

FakeDist = Callable[..., Path]
GARUDA = [sys.executable, "-c", "from garuda_evals.cli.main import entry; entry()"]
SPY_PLUGIN = """
import os

from garuda_evals.hookspecs import hookimpl
from garuda_evals.records import RunBackendRecord, SuiteRecord, ToolchainRecord


def _called(hook):
    with open(os.environ["SPY_LOG"], "a") as log:
        log.write(hook + "\\n")


@hookimpl
def garuda_suites():
    _called("suites")
    yield SuiteRecord(name="spy-suite", description="spy", load=lambda: None)
    yield SuiteRecord(name="spy-built", description="spy", load=lambda: None, in_all=False)


@hookimpl
def garuda_toolchains():
    _called("toolchains")
    yield ToolchainRecord(name="spytool", description="spy", load=lambda: None, aliases=("spy",))


@hookimpl
def garuda_run_backends():
    _called("backends")
    yield RunBackendRecord(name="spyback", description="spy", load=lambda: None)
"""


def spy_garuda(fake_dist: FakeDist, tmp_path: Path, *args: str) -> tuple[str, list[str]]:
    """Run garuda with the spy plugin installed: its output (whitespace joined, as click
    wraps help lines), and the hooks the spy saw called."""
    site = fake_dist("garuda-evals-spy", {"garuda_evals": {"spy": "spy_plugin"}},
                     {"spy_plugin.py": SPY_PLUGIN})  # fmt: skip
    log = tmp_path / "calls.log"
    log.unlink(missing_ok=True)
    done = subprocess.run(
        [*GARUDA, *args],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(site), "SPY_LOG": str(log)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    calls = log.read_text().split() if log.exists() else []
    return " ".join(done.stdout.split()), calls


def test_eval_help_lists_the_installed_suites_toolchains_and_backends(
    fake_dist: FakeDist, tmp_path: Path
) -> None:
    shown, calls = spy_garuda(fake_dist, tmp_path, "eval", "--help")
    suites = re.search(
        r"-s, --suite TEXT a suite \(([^)]*)\), all \(every one but ([^)]*)\)", shown
    )
    assert suites is not None, shown
    assert "spy-suite" in suites[1].split(", ") and "spy-built" in suites[1].split(", ")
    assert "spy-built" in suites[2].split(", ") and "spy-suite" not in suites[2]
    prepare = re.search(r"--prepare TOOLCHAIN prepare a toolchain and exit: (.*?) --resume", shown)
    assert prepare is not None, shown
    assert "spytool (spy)" in prepare[1]
    backend = re.search(r"--backend TEXT where runs execute: local \(this machine\)(.*?)\[", shown)
    assert backend is not None and "spyback" in backend[1], shown
    assert sorted(calls) == ["backends", "suites", "toolchains"]


def test_building_the_cli_asks_no_plugin_for_its_suites(
    fake_dist: FakeDist, tmp_path: Path
) -> None:
    """``garuda --help`` (and the CLI every run builds) calls none of the listing hooks."""
    shown, calls = spy_garuda(fake_dist, tmp_path, "--help")
    assert "eval" in shown
    assert calls == []
