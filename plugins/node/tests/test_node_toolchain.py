"""The node toolchain: the probe passes here, the version is read, and failures give the hint."""

from __future__ import annotations

import dataclasses

import anyio
from packaging.version import Version

from garuda_evals.plugins.manager import PluginRegistry
from garuda_evals.toolchains.probe import probe_toolchain
from garuda_evals_node.check import NodeTestCheckRunner
from garuda_evals_node.toolchain import MIN_NODE, node_toolchain


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
