"""A java check under bwrap when HOME is not the account's home.

Java takes ``user.home`` from the password database, not from HOME, so Maven reads its
local repository under the account's home whatever HOME says. The probe runs on the host
and passes there; the sandbox must show that same repository, or every check fails offline.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import anyio

from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.testing import only_report, run_garuda, skip_or_fail
from garuda_evals.toolchains import probe_toolchain
from garuda_evals_sandbox_bwrap import BwrapBackend

TASK = "paginator-boundary"


def test_a_java_check_passes_under_bwrap_with_home_elsewhere(tmp_path: Path) -> None:
    if shutil.which("bwrap") is None or not BwrapBackend().availability().ok:
        skip_or_fail("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    toolchains = PluginRegistry().collect("garuda_toolchains")
    if "maven" not in toolchains:
        skip_or_fail("maven", "garuda-evals-java is not installed")
    status = anyio.run(probe_toolchain, toolchains["maven"].record.load())
    if not status.ok:
        skip_or_fail("maven", status.hint)
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "project"
    project.mkdir()
    env = {key: value for key, value in os.environ.items() if not key.startswith("GARUDA_")}
    env["HOME"] = str(home)
    done = run_garuda(
        "eval", "-s", "java", "-t", TASK, "--agent", "oracle", "--executor", "os",
        cwd=project, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    report = only_report(project)
    assert report["executor"]["name"] == "bwrap"
    assert report["results"][0]["status"] == "PASS"
