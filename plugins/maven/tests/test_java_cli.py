"""``garuda eval`` on the java suite, end to end, through the installed console script."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from garuda_evals.testing import only_report, result_rows, run_garuda
from garuda_evals.toolchains import ToolchainStatus

TASK_IDS = [
    "paginator-boundary",
    "money-equals",
    "rename-across-classes",
    "lru-cache",
    "stream-report",
]


def _garuda(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return run_garuda(*args, cwd=cwd, env={**os.environ, **(env or {})})


def _eval(agent: str, cwd: Path) -> tuple[subprocess.CompletedProcess[str], dict]:
    done = _garuda(
        "eval", "--agent", agent, "-s", "java", "--executor", "host", "--parallel", "5", cwd=cwd
    )
    return done, only_report(cwd, done.stdout + done.stderr)


def test_prepare_java_leaves_the_offline_probe_passing(
    tmp_path: Path, maven: ToolchainStatus
) -> None:
    done = _garuda("eval", "--prepare", "java", cwd=tmp_path)

    assert done.returncode == 0, done.stdout + done.stderr
    assert "preparing maven: mvn -B -q test" in done.stdout
    assert f"maven {maven.version}: offline probe passes" in done.stdout


def test_oracle_passes_all_five(tmp_path: Path, maven: ToolchainStatus) -> None:
    done, report = _eval("oracle", tmp_path)

    assert done.returncode == 0, done.stdout + done.stderr
    assert result_rows(done.stdout, "java") == dict.fromkeys(TASK_IDS, "PASS")
    summary = report["summary"]
    assert (summary["attempted"], summary["passed"], summary["errors"]) == (5, 5, 0)
    assert report["versions"]["garuda-evals-java"] == "0.1.0"
    assert report["toolchains"]["maven"] == {"version": maven.version, **maven.versions}
    for result in report["results"]:
        assert result["check"]["command"] == "test ! -e .mvn && mvn -B -q -o test"
        # The judge's canaries (one fails as planted) and the held-out tests (with their
        # canaries, which all fail) are not counted as the task's tests.
        check = result["check"]
        assert set(check["heldOut"].values()) == {"passed"} and len(check["heldOut"]) >= 3
        assert set(check["heldOutCanaries"].values()) == {"failed"}
        assert check["testsRan"] >= 6 and check["testsFailed"] == 0
        assert "canaries (not counted): must-fail failed, must-pass passed" in check["evidence"]
        assert "held out (not counted): 3 of 3 passed, 6 of 6 canaries failed" in check["evidence"]


def test_noop_fails_all_five_with_the_reason(tmp_path: Path, maven: ToolchainStatus) -> None:
    done, report = _eval("noop", tmp_path)

    assert done.returncode == 2, done.stdout + done.stderr
    assert result_rows(done.stdout, "java") == dict.fromkeys(TASK_IDS, "FAIL")
    assert report["summary"]["passed"] == 0
    for result in report["results"]:
        assert result["status"] == "FAIL"
        assert result["protectedChanges"] == []
        failure = result["failure"]
        assert re.match(r"check exited 1: (\d+ failed: |compilation error: )", failure), failure


def test_list_shows_the_suite_and_the_versions(tmp_path: Path, maven: ToolchainStatus) -> None:
    done = _garuda("eval", "--list", cwd=tmp_path)

    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    java = next(line for line in lines if line.split()[:1] == ["java"])
    assert "5 tasks" in java and "needs maven" in java and "garuda-evals-java" in java
    toolchain = next(line for line in lines if line.split()[:1] == ["maven"])
    assert f"maven {maven.version}, jdk {maven.versions['jdk']}" in toolchain


def test_empty_repository_stops_the_run_with_the_hint(
    tmp_path: Path, maven: ToolchainStatus
) -> None:
    """Maven reads ``$HOME/.mavenrc``: it points this run's Maven at an empty repository."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".mavenrc").write_text(f'MAVEN_OPTS="-Dmaven.repo.local={tmp_path / "empty"}"\n')

    done = _garuda(
        "eval", "--agent", "oracle", "-s", "java", "--executor", "host",
        cwd=tmp_path, env={"HOME": str(home)},
    )  # fmt: skip

    assert done.returncode == 1, done.stdout + done.stderr
    found = f"(found maven {maven.version}, jdk {maven.versions['jdk']})"
    assert f"toolchain maven is not ready {found}" in done.stderr
    assert "garuda eval --prepare java" in done.stderr
    assert "offline mode" in done.stderr
    assert "PASS" not in done.stdout and "start:" not in done.stderr
