"""Hook implementations of garuda-evals-node. Hooks only name things; ``load`` makes them."""

from __future__ import annotations

from collections.abc import Iterator

from garuda_evals.api import CheckRunnerRecord, SuiteRecord, ToolchainRecord, hookimpl


def _toolchain():  # type: ignore[no-untyped-def]
    from garuda_evals_node.toolchain import node_toolchain

    return node_toolchain()


def _check_runner():  # type: ignore[no-untyped-def]
    from garuda_evals_node.check import NodeTestCheckRunner

    return NodeTestCheckRunner()


def _basic():  # type: ignore[no-untyped-def]
    from garuda_evals_node.suites import load_basic

    return load_basic()


def _hard():  # type: ignore[no-untyped-def]
    from garuda_evals_node.suites import load_hard

    return load_hard()


@hookimpl
def garuda_toolchains() -> Iterator[ToolchainRecord]:
    """The node toolchain (alias ``nodejs``)."""
    yield ToolchainRecord(
        name="node",
        description="Node.js 20.8+ with node --test",
        load=_toolchain,
        aliases=("nodejs",),
    )


@hookimpl
def garuda_check_runners() -> Iterator[CheckRunnerRecord]:
    """``node-test``: node's runner with a JUnit report; an early exit is a failure."""
    yield CheckRunnerRecord(
        name="node-test",
        description="node --test writing JUnit XML to {junit}",
        load=_check_runner,
    )


@hookimpl
def garuda_suites() -> Iterator[SuiteRecord]:
    """The basic suite (10 tasks) and the hard suite (6 tasks on shopkit)."""
    yield SuiteRecord(
        name="basic",
        description="10 small JavaScript tasks checked with node --test",
        load=_basic,
        requires=("node",),
    )
    yield SuiteRecord(
        name="hard",
        description="6 tasks on shopkit, a generated 107-file JavaScript repository",
        load=_hard,
        requires=("node",),
    )
