"""The node toolchain: the probe passes here, the version is read, and failures give the hint."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
from pathlib import Path

import anyio
from packaging.version import Version

from garuda_evals.environment import check_environment
from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.runner.toolchain_check import check_toolchains
from garuda_evals.toolchains.base import ToolchainStatus
from garuda_evals.toolchains.cache import ProbeCache, cache_file, file_stamps, probe_key
from garuda_evals.toolchains.probe import probe_toolchain, read_version_files
from garuda_evals_node.check import NodeTestCheckRunner
from garuda_evals_node.toolchain import MIN_NODE, VERSION_FILES_COMMAND, node_toolchain


def test_node_probe_passes_and_reads_the_version(node) -> None:
    status = anyio.run(probe_toolchain, node_toolchain())
    assert status.ok, status.output_head
    assert status.version is not None
    assert Version(status.version) >= Version(MIN_NODE)


def test_node_older_than_the_minimum_is_refused_with_the_hint(node) -> None:
    toolchain = dataclasses.replace(node_toolchain(), min_version="999.0")
    status = anyio.run(probe_toolchain, toolchain)
    assert not status.ok
    assert "older than 999.0" in status.hint
    assert "Install Node.js" in status.hint


def test_node_probe_failure_shows_the_hint_and_the_output(node) -> None:
    toolchain = dataclasses.replace(node_toolchain(), probe_command="node --test no-such-dir/")
    status = anyio.run(probe_toolchain, toolchain)
    assert not status.ok
    assert "Install Node.js" in status.hint
    assert status.output_head


def test_node_plugin_registers_its_records() -> None:
    registry = PluginRegistry()
    suites = registry.collect("garuda_suites")
    assert suites["basic"].distribution == "garuda-evals-node"
    assert suites["basic"].record.requires == ("node",)
    assert suites["hard"].record.requires == ("node",)
    toolchains = registry.collect("garuda_toolchains")
    assert toolchains["node"].record.load().min_version == MIN_NODE
    assert toolchains["nodejs"].record is toolchains["node"].record
    runner = registry.collect("garuda_check_runners")["node-test"].record.load()
    assert isinstance(runner, NodeTestCheckRunner)
    assert suites["basic"].record.load().name == "basic"
    assert suites["hard"].record.load().name == "hard"


def test_the_version_files_name_the_node_on_path(node: str) -> None:
    """The probe cache skips the version read only when the program ``node`` resolves to is
    among these files: here (a real node, no launcher) it is, and a remembered probe is
    taken without reading the version."""
    files = anyio.run(read_version_files, node_toolchain())
    assert files is not None and files[0] == os.path.realpath(node)
    registry = PluginRegistry()
    first = anyio.run(check_toolchains, registry, {"node"})["node"]
    second = ProbeCache(cache_file()).lookup_unread(node_toolchain(), check_environment())
    assert second is not None and first.cached is False
    assert (second.version, second.versions) == (first.version, first.versions)


def _mapped_library(stem: str) -> str:
    """The real path of a shared library node loads here (``libm.so``)."""
    maps = subprocess.run(
        ["node", "-e", 'process.stdout.write(require("fs").readFileSync("/proc/self/maps"))'],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = [line[line.index("/") :] for line in maps.splitlines() if f"/{stem}" in line]
    assert found, f"node maps no {stem}"
    return found[0]


def test_a_changed_libnode_misses_the_cache_though_the_node_program_is_unchanged(
    node: str, tmp_path: Path
) -> None:
    """Debian's node is a small program linked to libnode.so.NNN from another package: an
    upgrade of libnode alone changes the version. Here a library named libnode that node
    really loads (a copy of its libm, preloaded) must be among the version files, and
    replacing it must miss the cache while the program is unchanged."""
    libnode = tmp_path / "libnode.so.115"
    shutil.copyfile(_mapped_library("libm.so"), libnode)
    env = {**check_environment(), "LD_PRELOAD": str(libnode)}
    output = subprocess.run(
        ["sh", "-c", VERSION_FILES_COMMAND], env=env, capture_output=True, text=True, check=True
    ).stdout
    paths = list(dict.fromkeys(output.split()))
    assert paths == [os.path.realpath(node), str(libnode)]

    toolchain = node_toolchain()
    key = probe_key(toolchain, check_environment(), "20.8.0", {})
    assert key is not None
    cache = ProbeCache(tmp_path / "probes.json")
    cache.remember(key, ToolchainStatus(name="node", ok=True), version_files=file_stamps(paths))
    assert cache.lookup_unread(toolchain, check_environment()) is not None
    upgraded = tmp_path / "libnode.new"
    upgraded.write_bytes(libnode.read_bytes() + b"\0")
    os.replace(upgraded, libnode)
    assert cache.lookup_unread(toolchain, check_environment()) is None
