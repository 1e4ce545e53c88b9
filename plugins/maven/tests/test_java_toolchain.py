"""The maven toolchain: its records, versions, offline probe, and prepare from an empty repo."""

from __future__ import annotations

import shutil
from pathlib import Path

import anyio
import pytest
from packaging.version import Version

from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.suites.folder import FolderSuite
from garuda_evals.testing import self_test, skip_or_fail
from garuda_evals.toolchains import ToolchainStatus, prepare_toolchain, probe_toolchain
from garuda_evals_java.checks import SurefireCheckRunner
from garuda_evals_java.project import probe_files, shared_pom
from garuda_evals_java.toolchain import HINT, maven_toolchain

NETWORK_ERRORS = ("Could not transfer", "Unknown host", "Network is unreachable", "timed out")


def test_plugin_registers_suite_toolchain_and_check_runner() -> None:
    registry = PluginRegistry()

    suite = registry.collect("garuda_suites")["java"]
    toolchains = registry.collect("garuda_toolchains")
    runner = registry.collect("garuda_check_runners")["surefire"]

    assert suite.distribution == "garuda-evals-java"
    assert suite.record.requires == ("maven",)
    assert toolchains["java"].record is toolchains["maven"].record
    assert toolchains["maven"].record.load().aliases == ("java",)
    loaded = runner.record.load()
    assert isinstance(loaded, SurefireCheckRunner)
    assert loaded.report_dir == "target/surefire-reports"


def test_probe_project_is_built_on_the_shared_pom() -> None:
    files = probe_files()
    toolchain = maven_toolchain()

    assert files["pom.xml"] == shared_pom()
    assert toolchain.probe_files == files
    assert toolchain.probe_command == "mvn -B -q -o test"
    assert toolchain.prepare_command == "mvn -B -q test"
    assert any(path.startswith("src/main/java/") for path in files)
    assert any(path.startswith("src/test/java/") for path in files)


def test_versions_of_maven_and_the_jdk(maven: ToolchainStatus) -> None:
    assert maven.version is not None and Version(maven.version) >= Version("3.6.3")
    assert Version(maven.versions["jdk"]) >= Version("17")


def test_check_removes_stale_build_output(tmp_path: Path) -> None:
    (tmp_path / "target/test-classes").mkdir(parents=True)
    (tmp_path / "target/surefire-reports").mkdir()
    (tmp_path / "target/surefire-reports/TEST-fake.xml").write_text("<testsuite/>")

    plan = SurefireCheckRunner().plan("mvn -B -q -o test", tmp_path)

    assert not (tmp_path / "target").exists()
    assert plan.command == "mvn -B -q -o test"
    assert plan.evidence_paths == (tmp_path / "target/surefire-reports",)


def test_prepare_fills_an_empty_repository_for_offline_checks(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    maven_status: ToolchainStatus,
    java_suite: FolderSuite,
) -> None:
    """Maven reads ``$HOME/.mavenrc``: it points this test's Maven at an empty repository."""
    if shutil.which("mvn") is None or maven_status.version is None:
        skip_or_fail("maven", HINT)
    home, repository = tmp_path / "home", tmp_path / "repository"
    home.mkdir()
    (home / ".mavenrc").write_text(f'MAVEN_OPTS="-Dmaven.repo.local={repository} $MAVEN_OPTS"\n')
    monkeypatch.setenv("HOME", str(home))
    toolchain = maven_toolchain()

    before = anyio.run(probe_toolchain, toolchain)
    assert not before.ok
    assert before.hint == HINT and "offline" in before.output_head

    prepared, head, after = anyio.run(prepare_toolchain, toolchain)
    if not prepared and any(error in head for error in NETWORK_ERRORS):
        skip_or_fail("maven", f"Maven Central is unreachable, so --prepare cannot run: {head}")
    assert prepared, head
    assert after.ok, after.output_head
    assert (repository / "org/codehaus/plexus/plexus-utils/1.1").is_dir()
    provider = repository / "org/apache/maven/surefire/surefire-junit-platform/3.5.2"
    assert list(provider.glob("*.jar"))

    async def every_solved_task_offline() -> list[str]:
        failures: list[str] = []

        async def run(index: int) -> None:
            task = java_suite.tasks()[index]
            verdict = await self_test(java_suite, task, solved=True, timeout_s=180)
            if not verdict.passed:
                failures.append(f"{task.id}: {verdict.reason} {verdict.check}")

        async with anyio.create_task_group() as group:
            for index in range(len(java_suite.tasks())):
                group.start_soon(run, index)
        return failures

    assert anyio.run(every_solved_task_offline) == []
